"""Benchmark ``window``: frame times of the board window while the view pans and zooms,
beside the naive baseline of drawing the whole board afresh every frame.

For the shipped 60" x 44" map ``maps/ca-layout-1-hammer-and-anvil.toml`` (when it is
there) and a random layout of each size, an ``App`` (``tabletop.app.app``) of
``WINDOW_SIZE`` pixels is driven by pygame events, headless:

- *naive*: what a frame cost when every pan or zoom step redrew the board in full:
  ``draw_board`` with the static-layer cache emptied and unit outlines unthinned
  (``OUTLINE_STEP_PX = 0``), at the views the pan and zoom pass through;
- *pan* / *zoom*: a frame while arrow keys pan or the wheel zooms (the last full
  image shifted or scaled, ``App.view_moving``);
- *settle*: the full redraw once the view stops (after a pan the static layer is
  reused; after a zoom it is drawn again at the new scale).

With ``--play`` (``measure_play``), the shipped map's combat phase is also played
in the window as ``view --play`` does, headless: each frame is one ``App.update``
(the session's poll: pieces of engine work counted up to ``POLL_WORK``, a solve
cut in steps; ``app.play``: a frame does one heavy thing) and one ``App.draw``, and
an open question is answered with its default (what the default policy answers) in
the next frame.  The window runs first, with no solved move kept from before
(``fight_phase.moving._SOLVED`` emptied, as in a new process: a kept solve would cost
no solver steps and flatter the frames), then the baselines, emptied again.  It reports the
median and the longest frame (CPU ms, ``PLAY_MAX_FRAMES`` frames at most) beside
the baselines measured in the same run: the whole phase resolved in one go (what a
window with no slicing and no thread would freeze for), and the longest single
piece of work when a solve is not cut (the window before solves were cut in steps).

Times are CPU milliseconds of this process (``time.process_time``), the median of
``FRAMES`` frames, so other programs on the machine disturb them little.  The ratio
is naive / moving frame.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tabletop.bench import Benchmark
from tabletop.bench.layout import random_battlefield

FRAMES = 8                    # frames timed per measure (median)
PLAY_MAX_FRAMES = 5000        # --play: frames at most (the phase ends well before)
PLAY_SEED = 1                 # --play: the dice seed
WINDOW_SIZE = (1400, 900)     # pixels, the window's default
SHIPPED_MAP = Path(__file__).resolve().parents[2] / "maps" / "ca-layout-1-hammer-and-anvil.toml"


def _median_ms(times: list[float]) -> float:
    return 1000.0 * statistics.median(times)


def _cpu(fn: Callable[[], Any]) -> float:
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def measure(state) -> dict[str, float]:
    """Median CPU ms per frame of the naive full redraw, a moving frame while panning
    and zooming, and the redraw once each settles; ``state`` is any Battlefield."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")   # no banner inside the table
    import pygame

    from tabletop.app.app import App
    from tabletop.render import board

    pygame.display.init()
    pygame.font.init()
    if pygame.display.get_surface() is None:
        pygame.display.set_mode((1, 1), pygame.HIDDEN)   # pygame_gui converts its text images
    E = pygame.event.Event
    app = App(state, size=WINDOW_SIZE)
    surface = pygame.Surface(WINDOW_SIZE)
    app.draw(surface)
    centre = (app.board_rect.centerx, app.board_rect.centery)

    def key(k):
        app.handle(E(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))

    def wheel(notches):
        app.handle(E(pygame.MOUSEWHEEL, x=0, y=notches, flipped=False, pos=centre, precise_y=notches))

    pan_steps = [pygame.K_LEFT if (k // 4) % 2 == 0 else pygame.K_RIGHT for k in range(FRAMES)]
    zoom_steps = [1 if (k // 4) % 2 == 0 else -1 for k in range(FRAMES)]

    # the naive baseline: every frame drawn in full, at the views the pan and zoom visit
    views = []
    start = (app.view.scale, app.view.origin_x, app.view.origin_y)
    for k in pan_steps:
        key(k)
        views.append((app.view.scale, app.view.origin_x, app.view.origin_y))
    for n in zoom_steps:
        wheel(n)
        views.append((app.view.scale, app.view.origin_x, app.view.origin_y))
    app.view.scale, app.view.origin_x, app.view.origin_y = start
    naive = []
    step = board.OUTLINE_STEP_PX
    board.OUTLINE_STEP_PX = 0
    try:
        img = pygame.Surface(app.board_rect.size)
        for scale, ox, oy in views:
            board._STATIC.clear()
            v = type(app.view)(scale, ox, oy)
            naive.append(_cpu(lambda v=v: board.draw_board(img, app.state, app.geo, v,
                                                           overlays=app.overlays)))
    finally:
        board.OUTLINE_STEP_PX = step
    # the window: frames while moving, then the redraw when it settles
    app.draw(surface)
    pan, zoom, pan_settle, zoom_settle = [], [], [], []
    for k in pan_steps:
        key(k)
        pan.append(_cpu(lambda: app.draw(surface)))
    for _ in range(FRAMES):
        key(pan_steps[0])
        app._settle_at = 0.0
        pan_settle.append(_cpu(lambda: app.draw(surface)))
    for n in zoom_steps:
        wheel(n)
        zoom.append(_cpu(lambda: app.draw(surface)))
    for k in range(FRAMES):
        wheel(zoom_steps[k])
        app._settle_at = 0.0
        zoom_settle.append(_cpu(lambda: app.draw(surface)))
    return {"naive_ms": _median_ms(naive), "pan_ms": _median_ms(pan), "zoom_ms": _median_ms(zoom),
            "pan_settle_ms": _median_ms(pan_settle), "zoom_settle_ms": _median_ms(zoom_settle)}


def measure_play(state, seed: int = PLAY_SEED) -> dict[str, Any]:
    """``view --play`` on ``state``, headless: CPU ms of the median and the longest
    frame (poll + draw), beside the whole phase resolved in one go and the longest
    piece of work with solves not cut (see the module docstring)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")   # no banner inside the table
    import pygame

    from tabletop.app import interactive
    from tabletop.app.app import App
    from tabletop.app.interactive import PlaySession
    from tabletop.rules.fight_phase import moving

    pygame.display.init()
    pygame.font.init()
    if pygame.display.get_surface() is None:
        pygame.display.set_mode((1, 1), pygame.HIDDEN)
    # the window first, with no move solved before (a new ``view --play`` process: the
    # rules keep solved moves, ``moving._SOLVED``, and a kept one costs no solver steps)
    moving._SOLVED.clear()
    app = App(state, size=WINDOW_SIZE, play=PlaySession(state, seed))
    app.play.autosave = None    # a benchmark writes nothing beside the shipped map
    surface = pygame.Surface(WINDOW_SIZE)
    app.draw(surface)
    frames, asked, worked = [], 0, []

    def frame():
        nonlocal asked
        if app.play.question is not None:
            app.play.answer(app.play.question.default_index)
            asked += 1
        app.play.session.work = 0
        app.update(1.0 / 60.0)
        app.draw(surface)

    while not app.play.finished and len(frames) < PLAY_MAX_FRAMES:
        frames.append(_cpu(frame))
        if app.play.session.work > 0:
            worked.append(frames[-1])
    # baselines: the same phase, default answers, no solve cut in steps, none kept
    moving._SOLVED.clear()
    steps = interactive.SOLVER_STEPS_PER_PIECE
    interactive.SOLVER_STEPS_PER_PIECE = 10 ** 9
    try:
        whole = PlaySession(state, seed)
        whole.use_defaults = True
        whole.start()
        pieces = []
        while not whole.finished:
            pieces.append(_cpu(whole._work))
    finally:
        interactive.SOLVER_STEPS_PER_PIECE = steps
    return {"play_frames": len(frames), "play_median_ms": _median_ms(frames),
            "play_max_ms": 1000.0 * max(frames), "play_questions": asked,
            "play_resolved": app.play.outcome,
            "whole_phase_ms": 1000.0 * sum(pieces), "uncut_piece_max_ms": 1000.0 * max(pieces),
            "solver_steps_per_piece": steps, "play_solver_steps": app.play.session.budget.total,
            "play_p90_ms": 1000.0 * sorted(frames)[int(0.9 * (len(frames) - 1))],
            # the frames in which the engine did counted work (the rest only draw): their
            # median too, so resting frames cannot flatter the figure
            "play_working_frames": len(worked),
            "play_working_median_ms": _median_ms(worked) if worked else 0.0}


def run(sizes: list[int], seed: int, out: Callable[[str], None],
        play: bool = False) -> list[dict[str, Any]]:
    """Time the window on the shipped map and a random layout of each size; print a table.
    ``play``: also play the shipped map's combat phase in the window (``measure_play``)."""
    out("window: CPU ms per frame while panning (arrow keys) and zooming (wheel), "
        "vs. naive full redraw every frame")
    out(f"{'layout':>24} {'models':>7} {'naive':>8} {'pan':>7} {'zoom':>7} {'pan settle':>11} "
        f"{'zoom settle':>12} {'ratio':>7}")
    layouts = []
    if SHIPPED_MAP.exists():
        from tabletop.board import mapfile
        layouts.append((SHIPPED_MAP.stem[:24], mapfile.load(str(SHIPPED_MAP))))
    layouts += [(f"random {n}", random_battlefield(n, seed)) for n in sizes]
    rows = []
    for name, state in layouts:
        n = sum(len(u.models) for u in state.units)
        r = measure(state)
        moving = max(r["pan_ms"], r["zoom_ms"])
        ratio = r["naive_ms"] / max(moving, 1e-6)
        out(f"{name:>24} {n:>7} {r['naive_ms']:>8.1f} {r['pan_ms']:>7.1f} {r['zoom_ms']:>7.1f} "
            f"{r['pan_settle_ms']:>11.1f} {r['zoom_settle_ms']:>12.1f} {ratio:>6.0f}x")
        rows.append({"benchmark": "window", "layout": name, "models": n, **r, "ratio": ratio})
    out("ratio = naive / the slower of pan and zoom while moving; "
        "settle = the one full redraw when the view stops")
    if play and SHIPPED_MAP.exists():
        from tabletop.board import mapfile
        shipped = mapfile.load(str(SHIPPED_MAP))
        r = measure_play(shipped)
        out("")
        out(f"window --play: view --play on {SHIPPED_MAP.name}, CPU ms per frame (poll + draw), "
            f"default answers, seed {PLAY_SEED}")
        out(f"{'frames':>7} {'median':>8} {'p90':>7} {'longest':>8} {'working':>8} "
            f"{'w median':>9} {'whole phase':>12} {'uncut piece':>12} {'outcome':>9}")
        out(f"{r['play_frames']:>7} {r['play_median_ms']:>8.1f} {r['play_p90_ms']:>7.1f} "
            f"{r['play_max_ms']:>8.1f} {r['play_working_frames']:>8} "
            f"{r['play_working_median_ms']:>9.1f} {r['whole_phase_ms']:>12.0f} "
            f"{r['uncut_piece_max_ms']:>12.0f} {r['play_resolved']:>9}")
        out("whole phase = resolved in one go (a window with no slicing freezes that long); "
            "uncut piece = the longest piece when a solve is not cut in steps; target: median "
            "under 16.7 ms, no frame over 100 ms")
        rows.append({"benchmark": "window-play", "layout": SHIPPED_MAP.stem[:24],
                     "models": sum(len(u.models) for u in shipped.units), **r})
    return rows


BENCHMARK = Benchmark("window", "board window frame times while panning and zooming "
                      "(--play: while the combat phase plays)", run, ("play",))
