"""Benchmark ``window-edit``: frame times of the board window while a person selects,
drags and drops a model, and steps through a fight, on a big table, beside the naive
baseline of the same frame drawn whole with a fresh geometry snapshot (issue 11 item 3).

An ``App`` (``tabletop.app.app``) of ``window_bench.WINDOW_SIZE`` pixels on
``random_battlefield(n)`` is driven by posted pygame events, headless; each frame is the
events it takes plus one ``App.update`` and one ``App.draw``:

- *select*: a click on a model of another unit (press and release on its base);
- *first drag*: the press on the selected model and the first motion past the drag
  threshold (the drag's set-up: the pile-in limit of its unit);
- *drag*: each later motion while dragging;
- *drop*: the release (the move made: a new snapshot, the board redrawn where it changed),
  and each frame after it while its labels are still placed (``redraw.LABELS_PER_FRAME``);
- *step*: ``n`` and ``p`` on a fight's steps, every frame of each (a pile-in or a
  consolidation slides over ``MOVE_ANIMATION_FRAMES`` frames; a step's picture is built
  over several frames, ``app.step_build``, every one of them counted).  The fight is
  ``maps/lessons/pile-in.toml``'s resolved with seed 1, with the random table's units
  beside it in every step (``fight_steps``): one engagement on a table of ``n`` more
  models.

The baseline (*naive*), measured in the same run for each kind of frame: the board drawn
whole (``draw_board`` / ``draw_step`` with the static-layer cache emptied and outlines not
thinned, as ``window_bench``'s naive baseline) plus a fresh ``snapshot`` of the state shown,
what a window that redraws everything and rebuilds its geometry would spend per frame.

Times are CPU milliseconds (``time.process_time``): the median of at least ``REPEATS``
frames and the longest.  Target: no frame over ``TARGET_MS``.
"""

from __future__ import annotations

import gc
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from tabletop.bench import Benchmark
from tabletop.bench.layout import random_battlefield
from tabletop.bench.window_bench import WINDOW_SIZE

REPEATS = 5            # frames of each kind at least (select, drag, drop: one per model moved)
LATER_DRAGS = 3        # later drag frames per drag
TARGET_MS = 33.0       # issue 11 item 3: no frame over this when dragging, dropping, stepping
FIGHT_MAP = Path(__file__).resolve().parents[2] / "maps" / "lessons" / "pile-in.toml"
FIGHT_SEED = 1
KINDS = ("select", "first drag", "drag", "drop", "step")


def _cpu(fn: Callable[[], Any]) -> float:
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def frame_timer(app: Any, surface: Any) -> Callable[..., float]:
    """``frame(*events)``: CPU seconds of one window frame - ``events`` handled, one update
    at 60 fps, one draw onto ``surface``."""
    def frame(*events: Any) -> float:
        def go() -> None:
            for e in events:
                app.handle(e)
            app.update(1 / 60)
            app.draw(surface)
        return _cpu(go)
    return frame


def _display():
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    pygame.display.init()
    pygame.font.init()
    if pygame.display.get_surface() is None:
        pygame.display.set_mode((1, 1), pygame.HIDDEN)   # pygame_gui converts its text images
    return pygame


def fight_steps(n: int, seed: int = 0):
    """(state, steps, events): the pile-in lesson's fight phase resolved with
    ``FIGHT_SEED``, each step's table joined by ``random_battlefield(n, seed)``'s units
    (ids prefixed ``r``) standing to its right, 4" clear of it."""
    from tabletop.board import mapfile
    from tabletop.board.state import Model
    from tabletop.cli.fight_cmd import resolve

    lesson = mapfile.load(str(FIGHT_MAP))
    crowd = random_battlefield(n, seed)
    dx = lesson.table.width + 4.0
    extra = tuple(replace(u, id="r" + u.id, models=tuple(
        replace(m, id="r" + m.id, x=m.x + dx) for m in u.models)) for u in crowd.units)
    assert all(isinstance(m, Model) for u in extra for m in u.models)
    table = replace(lesson.table, width=dx + crowd.table.width,
                    depth=max(lesson.table.depth, crowd.table.depth))

    def joined(st):
        return None if st is None else replace(st, table=table, units=st.units + extra)

    res = resolve(lesson, seed=FIGHT_SEED)
    steps = [replace(s, state=joined(s.state), before=joined(s.before)) for s in res.log.steps]
    return joined(lesson), steps, res.log.events


def _free_spot(app, mid: str) -> tuple[int, int]:
    """A pixel offset (dx, dy) past the drag threshold that moves ``mid`` onto free table."""
    from tabletop.geometry.probe import overlaps_at

    m = app.state.model(mid)
    for d in (6, 8, 10, 12):
        for ox, oy in ((d, 0), (-d, 0), (0, d), (0, -d), (d, d), (-d, -d), (d, -d), (-d, d)):
            x = m.x + ox / app.view.scale
            y = m.y - oy / app.view.scale
            if not overlaps_at(app.state, mid, x, y, geo=app.geo):
                return ox, oy
    return 0, 0


def _naive(pygame, size, state, draw: Callable[[Any, Any], None]) -> float:
    """CPU seconds of a fresh snapshot of ``state`` and ``draw(img, geo)`` whole."""
    from tabletop.geometry import snapshot
    from tabletop.render import board

    step = board.OUTLINE_STEP_PX
    board.OUTLINE_STEP_PX = 0
    try:
        img = pygame.Surface(size)
        board._STATIC.clear()
        return _cpu(lambda: draw(img, snapshot(state)))
    finally:
        board.OUTLINE_STEP_PX = step
        gc.collect()    # the baseline's garbage is not charged to the window's next frame


def measure_edit(state, repeats: int = REPEATS) -> dict[str, list[float]]:
    """CPU seconds of each select, first drag, later drag and drop frame (``repeats``
    models, each of another unit, moved a few pixels onto free table), and of the naive
    baseline of each (the board whole and a fresh snapshot)."""
    pygame = _display()
    from tabletop.app.app import App
    from tabletop.app.window import settle_heap
    from tabletop.render import board

    E = pygame.event.Event
    app = App(state, size=WINDOW_SIZE)
    surface = pygame.Surface(WINDOW_SIZE)
    app.update(1 / 60)
    app.draw(surface)
    settle_heap()                   # as the window does once it is open (app.window)
    out: dict[str, list[float]] = {k: [] for k in KINDS if k != "step"}
    naive: dict[str, list[float]] = {k: [] for k in out}
    units = [u for u in state.units if len(u.models) > 1]
    stride = max(1, len(units) // max(1, repeats))
    picked = [units[(k * stride) % len(units)].models[0].id for k in range(repeats)]

    frame = frame_timer(app, surface)

    def whole(kind):
        rect = app.board_rect
        naive[kind].append(_naive(pygame, rect.size, app.state, lambda img, geo: board.draw_board(
            img, app.state, geo, app.view, overlays=app.overlays, selected=app.selected)))

    for mid in picked:
        m = app.state.model(mid)
        pos = tuple(int(round(c)) for c in app.view.to_screen(m.x, m.y))
        dx, dy = _free_spot(app, mid)
        out["select"].append(frame(E(pygame.MOUSEBUTTONDOWN, button=1, pos=pos),
                                   E(pygame.MOUSEBUTTONUP, button=1, pos=pos)))
        whole("select")
        end = (pos[0] + dx, pos[1] + dy)
        out["first drag"].append(frame(E(pygame.MOUSEBUTTONDOWN, button=1, pos=pos),
                                       E(pygame.MOUSEMOTION, pos=end, rel=(dx, dy), buttons=(1, 0, 0))))
        whole("first drag")
        for k in range(LATER_DRAGS):
            wob = (end[0] + (k % 2), end[1])
            out["drag"].append(frame(E(pygame.MOUSEMOTION, pos=wob, rel=(1, 0), buttons=(1, 0, 0))))
            whole("drag")
        last = (end[0] + (LATER_DRAGS - 1) % 2, end[1])
        out["drop"].append(frame(E(pygame.MOUSEBUTTONUP, button=1, pos=last)))
        whole("drop")
        while app.building:         # labels still placed over the next frames: drop frames too
            out["drop"].append(frame())
    gc.unfreeze()
    return {**out, **{f"naive {k}": v for k, v in naive.items()}}


def measure_steps(state, steps, events, repeats: int = REPEATS) -> dict[str, list[float]]:
    """CPU seconds of every frame while stepping forward (``n``, then each frame of a
    slide) and back (``p``) through ``steps``, at least ``repeats`` of each, and of the
    naive baseline (the step drawn whole and a fresh snapshot) at each step shown."""
    pygame = _display()
    from tabletop.app.app import App
    from tabletop.app.window import settle_heap
    from tabletop.render.steps import draw_step

    E = pygame.event.Event
    app = App(state, size=WINDOW_SIZE, steps=steps, events=events)
    surface = pygame.Surface(WINDOW_SIZE)
    app.update(1 / 60)
    app.draw(surface)
    settle_heap()
    frames: list[float] = []
    naive: list[float] = []

    def key(k):
        return E(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0)

    def frame(*evs):
        def go():
            for e in evs:
                app.handle(e)
            app.update(1 / 60)
            app.draw(surface)
        return _cpu(go)

    def whole():
        st = app.steps[app.step_index]
        naive.append(_naive(pygame, app.board_rect.size, st.state, lambda img, geo: draw_step(
            img, st, app.view, geo=geo, events=app.events, overlays=app.overlays, caption=False)))

    forward = 0
    while forward < repeats or app.step_index < len(steps) - 1:
        if app.step_index >= len(steps) - 1:
            break
        frames.append(frame(key(pygame.K_n)))
        whole()
        forward += 1
        while app.animating or app.building:
            frames.append(frame())
    for _ in range(max(repeats, 1)):
        if app.step_index == 0:
            break
        frames.append(frame(key(pygame.K_p)))
        whole()
        while app.building:
            frames.append(frame())
    gc.unfreeze()
    return {"step": frames, "naive step": naive}


def _ms(xs: list[float]) -> tuple[float, float]:
    return 1000.0 * statistics.median(xs), 1000.0 * max(xs)


def run(sizes: list[int], seed: int, out: Callable[[str], None],
        repeat: int | None = None) -> list[dict[str, Any]]:
    """Time the window's editing and stepping frames on a random layout of each size
    (``repeat``: models moved, steps taken, at least; None: ``REPEATS``); print a table,
    return its rows."""
    repeat = REPEATS if repeat is None else max(1, int(repeat))
    out(f"window-edit: CPU ms per frame at {WINDOW_SIZE[0]}x{WINDOW_SIZE[1]} px (median / longest), "
        f"vs. naive: the frame drawn whole + a fresh snapshot")
    out(f"{'models':>7} {'frame':>11} {'frames':>7} {'median':>8} {'longest':>8} "
        f"{'naive med':>10} {'naive max':>10} {'ratio':>7} {'<33ms':>6}")
    rows = []
    for n in sizes:
        state = random_battlefield(n, seed)
        got = measure_edit(state, repeat)
        st, steps, events = fight_steps(n, seed)
        got.update(measure_steps(st, steps, events, repeat))
        for kind in KINDS:
            xs, base = got[kind], got[f"naive {kind}"]
            med, top = _ms(xs)
            bmed, btop = _ms(base)
            ratio = bmed / max(med, 1e-6)
            met = top <= TARGET_MS
            models = n + (sum(len(u.models) for u in steps[0].state.units) - n if kind == "step" else 0)
            out(f"{models:>7} {kind:>11} {len(xs):>7} {med:>8.1f} {top:>8.1f} {bmed:>10.1f} "
                f"{btop:>10.1f} {ratio:>6.1f}x {'yes' if met else 'no':>6}")
            rows.append({"benchmark": "window-edit", "frame": kind, "models": models,
                         "frames": len(xs), "median_ms": med, "max_ms": top,
                         "naive_median_ms": bmed, "naive_max_ms": btop, "ratio": ratio,
                         "target_ms": TARGET_MS, "met": met})
    out("step = every frame of n (each slide frame too) and p on the pile-in lesson's fight "
        "beside the random table; ratio = naive median / median")
    return rows


BENCHMARK = Benchmark("window-edit", "board window frame times while selecting, dragging, "
                      "dropping and stepping on a big table", run, ("repeat",))
