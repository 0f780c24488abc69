"""Benchmark ``window-autosave``: the window's frames around the autosave's rewrite in the
map's own words (``app.autosave_keep``), beside doing that rewrite in a frame.

For a random layout of each size, written to a temporary folder as a map file with comments
(a header and one before each ``[[units]]`` table), an ``App`` of ``WINDOW_SIZE`` pixels
on it is driven by posted pygame events, headless: a model is dragged and dropped (the fast
autosave written in the drop frame), then the window stays idle.  Each frame is one
``App.update`` and one ``App.draw``:

- *drop*: the release frame (the move made, the fast copy written: ``mapfile.dumps``, tomli-w)
  and the frames after it while its labels are placed;
- *idle*: the ``IDLE_FRAMES`` frames with no input, the last of which starts the worker
  process (a temporary file made, ``subprocess.Popen``);
- *working*: the frames while the worker runs (each only asks whether it has ended), the
  loop waiting ``FRAME_WAIT_S`` between frames as a window at 60 FPS does, so the worker
  has the other core as it would;
- *rename*: the frame that takes the worker's result (``os.replace`` over the autosave).

*longest* is the longest of all these frames; *before* is the longest of the same frames
with the rewrite off (what the window did before: the fast copy only).  The baseline
(*in frame*) is the rewrite done in a frame instead: ``mapfile.edited_text`` and the
atomic write of its text, what a window without the worker would freeze for.  *worker* is
the worker process's CPU (``resource.getrusage(RUSAGE_CHILDREN)``), spent off the window's
process.  Times are CPU milliseconds of this process (``time.process_time``); the wait
between frames is not timed.  Target: no frame over ``TARGET_MS``.
"""

from __future__ import annotations

import gc
import os
import resource
import tempfile
import time
from collections.abc import Callable
from typing import Any

from tabletop.bench import Benchmark
from tabletop.bench.layout import random_battlefield
from tabletop.bench.window_bench import WINDOW_SIZE
from tabletop.bench.window_edit_bench import TARGET_MS, _cpu, _display, _free_spot, frame_timer

FRAME_WAIT_S = 1 / 60         # between frames, untimed: the window's own frame clock
MAX_WORKING_FRAMES = 6000     # frames at most while the worker runs (100 s at 60 FPS)


def _map_text(state) -> str:
    """``state`` as a map file with comments a person would write."""
    from tabletop.board import mapfile

    text = mapfile.dumps(state).replace("[[units]]", "# measured on the table\n[[units]]")
    return "# a bench table: every comment must survive the autosave\n" + text


def measure(state, rewrite: bool = True) -> dict[str, Any]:
    """CPU seconds of each frame around one drop on ``state`` (see the module docstring);
    ``rewrite``: False turns the rewrite off (the frames before it existed)."""
    pygame = _display()
    from tabletop.app.app import App
    from tabletop.app.autosave_keep import IDLE_FRAMES
    from tabletop.app.unsaved import autosave_path
    from tabletop.app.window import settle_heap
    from tabletop.board import mapfile

    E = pygame.event.Event
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "bench.toml")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(_map_text(state))
        app = App(mapfile.load(path), path, size=WINDOW_SIZE)
        if not rewrite:
            app.unsaved.kept.idle_frames = 10 ** 9
        surface = pygame.Surface(WINDOW_SIZE)
        app.update(1 / 60)
        app.draw(surface)
        settle_heap()
        kept = app.unsaved.kept

        frame = frame_timer(app, surface)

        unit = next(u for u in state.units if len(u.models) > 1)
        mid = unit.models[0].id
        m = app.state.model(mid)
        pos = tuple(int(round(c)) for c in app.view.to_screen(m.x, m.y))
        dx, dy = _free_spot(app, mid)
        end = (pos[0] + dx, pos[1] + dy)
        frame(E(pygame.MOUSEBUTTONDOWN, button=1, pos=pos), E(pygame.MOUSEBUTTONUP, button=1, pos=pos))
        frame(E(pygame.MOUSEBUTTONDOWN, button=1, pos=pos),
              E(pygame.MOUSEMOTION, pos=end, rel=(dx, dy), buttons=(1, 0, 0)))
        drop = [frame(E(pygame.MOUSEBUTTONUP, button=1, pos=end))]
        while app.building:
            drop.append(frame())
        idle = [frame() for _ in range(IDLE_FRAMES)]
        working: list[float] = []
        rename: list[float] = []
        child0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        while kept.state == "working" and len(working) < MAX_WORKING_FRAMES:
            time.sleep(FRAME_WAIT_S)
            t = frame()
            (working if kept.state == "working" else rename).append(t)
        child1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        worker = (child1.ru_utime + child1.ru_stime) - (child0.ru_utime + child0.ru_stime)
        text = open(autosave_path(path), encoding="utf-8").read()
        outcome = kept.state
        kept_comments = text.startswith("# a bench table")
        # the baseline: the rewrite in a frame (edit the map's document, write it atomically)
        from tabletop.board.writes import write_atomic
        scratch = os.path.join(folder, "in-frame.autosave.toml")
        in_frame = _cpu(lambda: write_atomic(scratch, mapfile.edited_text(app.state, path) or "",
                                             force=True))
        app.close()
    gc.unfreeze()
    frames = drop + idle + working + rename
    return {"drop": drop, "idle": idle, "working": working, "rename": rename,
            "longest": max(frames), "in_frame": in_frame, "worker": worker,
            "outcome": outcome, "kept_comments": kept_comments}


def run(sizes: list[int], seed: int, out: Callable[[str], None]) -> list[dict[str, Any]]:
    """Time the frames around the autosave's rewrite on a random layout of each size;
    print a table, return its rows."""
    out(f"window-autosave: CPU ms per frame at {WINDOW_SIZE[0]}x{WINDOW_SIZE[1]} px around the "
        f"autosave's rewrite in the map's words (longest of each kind)")
    out(f"{'models':>7} {'drop':>7} {'idle':>7} {'start':>7} {'working':>8} {'frames':>7} "
        f"{'rename':>7} {'longest':>8} {'before':>7} {'in frame':>9} {'worker':>7} "
        f"{'<33ms':>6} {'kept':>5}")
    rows = []
    for n in sizes:
        state = random_battlefield(n, seed)
        r = measure(state)
        b = measure(state, rewrite=False)
        before = b["longest"]

        def ms(xs):
            return 1000.0 * max(xs) if xs else 0.0
        met = r["longest"] * 1000.0 <= TARGET_MS
        out(f"{n:>7} {ms(r['drop']):>7.1f} {ms(r['idle'][:-1]):>7.1f} {ms(r['idle'][-1:]):>7.1f} "
            f"{ms(r['working']):>8.1f} {len(r['working']):>7} {ms(r['rename']):>7.1f} "
            f"{1000 * r['longest']:>8.1f} {1000 * before:>7.1f} {1000 * r['in_frame']:>9.1f} "
            f"{1000 * r['worker']:>7.0f} {'yes' if met else 'no':>6} "
            f"{'yes' if r['kept_comments'] else 'no':>5}")
        rows.append({"benchmark": "window-autosave", "models": n,
                     "drop_max_ms": ms(r["drop"]), "idle_max_ms": ms(r["idle"][:-1]),
                     "start_ms": ms(r["idle"][-1:]), "working_max_ms": ms(r["working"]),
                     "working_frames": len(r["working"]), "rename_ms": ms(r["rename"]),
                     "max_ms": 1000 * r["longest"], "before_max_ms": 1000 * before,
                     "in_frame_ms": 1000 * r["in_frame"], "worker_cpu_ms": 1000 * r["worker"],
                     "outcome": r["outcome"], "comments_kept": r["kept_comments"],
                     "target_ms": TARGET_MS, "met": met})
    out("start = the idle frame that starts the worker; before = the longest of the same frames "
        "with no rewrite (the fast copy only); in frame = the rewrite done in a frame instead; "
        "worker = its CPU, in another process")
    return rows


BENCHMARK = Benchmark("window-autosave", "board window frame times around the autosave's "
                      "rewrite in the map's own words", run)
