"""Benchmark ``charge-shade``: the window's charge-odds shading (``C``) of one unit on the
60x44 layout, beside the row-by-row sweep it replaces, run on the same grid in the same
session (issue 10 item 1, last bullet).

- ``field`` (today): ``rules.reach_odds.odds_field_pieces``: one distance field for the
  unit (``geometry/reach_field.py``), the chance read per band;
- ``rows`` (the baseline): ``rules.charge_plan.odds_grid_pieces``, what charge mode ran
  before: each grid row tried against every corner of the path graph, and the charge
  roll enumerated again for each row.

Both run to their end through the window's own piece runner (``app.charge_mode.Job``),
so the ``frames`` column is the number of frames of ``WORK_PER_FRAME`` counted work each
takes; ``cpu ms`` is ``time.process_time`` (CPU, not wall: the machine is shared), the
median of ``REPEATS`` runs (the baseline: ``BASELINE_REPEATS``).  The two grids are
compared cell by cell (``max diff``), so the ratio is between equal answers.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from tabletop.bench import Benchmark

#: (map under the repository's maps/, unit) timed
CASES = (("ca-layout-1-hammer-and-anvil.toml", "stormboyz"),
         ("ca-layout-1-hammer-and-anvil.toml", "gretchin"))
#: timed runs of today's field per case (the median printed); of the baseline
REPEATS = 3
BASELINE_REPEATS = 1
#: grid step, inches (the window's)
STEP_IN = 0.5


def _run(gen) -> tuple[float, int, Any]:
    """CPU seconds and frames of one run of the generator ``gen`` (not started yet: a
    generator does nothing until asked) through charge mode's ``Job`` at
    ``WORK_PER_FRAME``, and its value."""
    from tabletop.app.charge_mode import WORK_PER_FRAME, Job
    t = time.process_time()
    job = Job(gen)
    frames = 0
    while not job.done:
        job.run(WORK_PER_FRAME)
        frames += 1
    return time.process_time() - t, frames, job.value


def run(sizes: list[int], seed: int, out: Callable[[str], None],
        repeat: int | None = None) -> list[dict[str, Any]]:
    """Time each of ``CASES`` (``sizes`` and ``seed`` are not used); ``repeat``: timed runs
    of today's field (default ``REPEATS``)."""
    from tabletop.board.mapfile import load
    from tabletop.rules.charge_plan import odds_grid_pieces
    from tabletop.rules.reach_odds import odds_field_pieces
    maps = Path(__file__).resolve().parents[2] / "maps"
    n = REPEATS if repeat is None else repeat
    rows = []
    out(f"charge-shade: the window's charge-odds shading of one unit (CPU ms, median of {n}; "
        f"baseline: the row-by-row sweep it replaces, {BASELINE_REPEATS} run), frames of "
        "counted work")
    out(f"{'case':<34} {'field ms':>9} {'frames':>7} {'rows ms':>9} {'frames':>7} "
        f"{'x faster':>9} {'max diff':>9}")
    for name, unit in CASES:
        st = load(str(maps / name))
        xs = np.arange(STEP_IN / 2, st.table.width, STEP_IN)
        ys = np.arange(STEP_IN / 2, st.table.depth, STEP_IN)
        new = [_run(odds_field_pieces(st, unit, xs, ys)) for _ in range(n)]
        probs = new[-1][2][0]
        old = []
        for _ in range(BASELINE_REPEATS):
            grid = np.zeros((len(ys), len(xs)))
            cpu, frames, _ = _run(odds_grid_pieces(st, unit, xs, ys, grid))
            old.append((cpu, frames, grid))
        med_new = statistics.median(r[0] for r in new)
        med_old = statistics.median(r[0] for r in old)
        diff = float(np.max(np.abs(probs - old[-1][2])))
        case = f"{Path(name).stem[:20]} {unit}"
        out(f"{case:<34} {med_new * 1e3:9.0f} {new[-1][1]:7d} {med_old * 1e3:9.0f} "
            f"{old[-1][1]:7d} {med_old / med_new:9.1f} {diff:9.1g}")
        rows.append({"benchmark": "charge-shade", "case": case, "unit": unit, "cpu_s": med_new,
                     "times_s": [r[0] for r in new], "frames": new[-1][1], "baseline_s": med_old,
                     "baseline_frames": old[-1][1], "ratio": med_old / med_new,
                     "max_diff": diff, "cells": int(probs.size)})
    return rows


BENCHMARK = Benchmark("charge-shade", "the window's charge-odds shading (C) of a unit on the "
                      "60x44 layout, beside the row-by-row sweep it replaces", run, ("repeat",))
