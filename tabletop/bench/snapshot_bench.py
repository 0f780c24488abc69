"""Benchmark ``snapshot``: build the geometry snapshot and answer base contacts,
engagement, coherency and objective control, beside the honest all-pairs baseline
(``tabletop.geometry.naive.exact_answers``: every pair measured on the snapshot's own
exact shapes, round bases analytic with numpy, no spatial index) asking the same
questions in the same run.

Every figure is CPU time (``time.process_time``), the median of ``MAIN_RUNS`` runs (the
derivations: ``RUNS``), each side's runs back to back (a burst of one after a run of the
other reads cold caches: 24% slower for the snapshot after the baseline); the
baseline is really run at every size (never sampled or extrapolated) and its answers
are compared with the snapshot's.  Each snapshot run starts with the footprint caches
emptied, as a table seen for the first time.  Then the derivations: ``without`` (one
casualty removed: "wound one") and ``moved`` (one model moved 1": "moved one") beside a
full snapshot of the same table, and the answers of each compared with the full one's.
"""

from __future__ import annotations

import dataclasses
import statistics
import time
from collections.abc import Callable
from typing import Any

from tabletop.bench import Benchmark
from tabletop.bench.layout import CELL_D, CELL_W, random_battlefield
from tabletop.board.bases import parse_base
from tabletop.board.state import Battlefield, Objective
from tabletop.geometry import convex, footprints, snapshot
from tabletop.geometry.naive import exact_answers
from tabletop.geometry.snapshot import _POLYGONS, _SHAPES

RUNS = 5                      # timed runs of each figure, the median printed
MAIN_RUNS = 9                 # the snapshot's and the baseline's own runs (each side's loop
                              # runs back to back, its caches warm, as the other side's)
OBJECTIVE_EVERY = 2           # an objective at every second grid corner, each way
OBJECTIVE_MARKER = "40mm"


def with_objectives(state: Battlefield) -> Battlefield:
    """``state`` with 40mm objective markers where the units' cells meet, one at every
    ``OBJECTIVE_EVERY``-th grid corner each way (inches; range as the ruleset sets it)."""
    marker = parse_base(OBJECTIVE_MARKER)
    cols = round(state.table.width / CELL_W)
    rows = round(state.table.depth / CELL_D)
    objs = tuple(Objective(id=f"o{c}-{r}", at=(c * CELL_W, r * CELL_D), marker=marker)
                 for c in range(1, cols, OBJECTIVE_EVERY) for r in range(1, rows, OBJECTIVE_EVERY))
    return dataclasses.replace(state, objectives=objs)


def _cold() -> None:
    footprints._FOOTPRINTS.clear()
    _POLYGONS.clear()
    _SHAPES.clear()
    convex.clear_templates()


def _answers(geo) -> tuple:
    return (geo.base_contacts, geo.engaged_unit_pairs,
            {u: list(b.models) for u, b in geo.coherency.items()}, geo.objective_ranges)


def _timed(fn: Callable[[], Any], runs: int = RUNS) -> tuple[float, Any]:
    """(median CPU seconds of ``runs`` calls, the last call's result)."""
    times, got = [], None
    for _ in range(runs):
        t0 = time.process_time()
        got = fn()
        times.append(time.process_time() - t0)
    return statistics.median(times), got


def _snapshot_once(state) -> tuple[float, float, Any]:
    _cold()
    t0 = time.process_time()
    geo = snapshot(state)
    t1 = time.process_time()
    _answers(geo)
    t2 = time.process_time()
    return t1 - t0, t2 - t0, geo


def _derivations(state, geo) -> dict[str, Any]:
    """Time ``without`` (the last model of the first engaged unit removed) and ``moved``
    (the first model moved 1" along x) beside fresh snapshots of those tables."""
    unit = state.unit(geo.engaged_unit_pairs[0][0] if geo.engaged_unit_pairs else state.units[0].id)
    gone = unit.models[-1]
    lost = state.with_unit(dataclasses.replace(unit, models=unit.models[:-1]))
    first = state.units[0]
    m = first.models[0]
    step = state.with_unit(dataclasses.replace(
        first, models=(m.moved_to(m.x + 1.0, m.y),) + first.models[1:]))
    out: dict[str, Any] = {}
    for name, table, derive in (("without", lost, lambda: geo.without(lost)),
                                ("moved", step, lambda: geo.moved(step, [m.id]))):
        fresh_s, fresh = _timed(lambda t=table: snapshot(t))
        derived_s, derived = _timed(derive)
        out[f"{name}_ms"] = derived_s * 1e3
        out[f"{name}_fresh_ms"] = fresh_s * 1e3
        out[f"{name}_agree"] = _answers(derived) == _answers(fresh) and derived._gap == fresh._gap
    out["removed"] = gone.id
    return out


def run(sizes: list[int], seed: int, out: Callable[[str], None]) -> list[dict[str, Any]]:
    """Time the snapshot and the honest baseline for each model count; print a table."""
    out("snapshot: geometry snapshot + base contacts, engagement, coherency, objective control "
        "vs. an all-pairs loop on the same exact shapes (round bases analytic, numpy per model, "
        f"no spatial index); CPU ms, medians of {MAIN_RUNS} runs (the derivations: {RUNS}), "
        f"both really run")
    out(f"{'models':>7} {'units':>6} {'objs':>5} {'build ms':>9} {'+answers ms':>11} "
        f"{'baseline ms':>12} {'ratio':>7}  {'wound one':>10} {'(full)':>8} "
        f"{'moved one':>9} {'(full)':>8}  agreement")
    rows = []
    _snapshot_once(random_battlefield(20, seed))        # warm up imports
    for n in sizes:
        state = with_objectives(random_battlefield(n, seed))
        runs = [_snapshot_once(state) for _ in range(MAIN_RUNS)]
        build = statistics.median(r[0] for r in runs)
        total = statistics.median(r[1] for r in runs)
        geo = runs[-1][2]
        base_s, base = _timed(lambda state=state: exact_answers(state), MAIN_RUNS)
        agree = (base.base_contacts, base.engaged_unit_pairs, base.incoherent,
                 base.objective_ranges) == _answers(geo)
        d = _derivations(state, geo)
        ratio = base_s / total
        total_pairs = n * (n - 1) // 2
        note = ("answers agree" if agree else "ANSWERS DIFFER") + (
            "; derived = fresh" if d["without_agree"] and d["moved_agree"] else
            "; DERIVED DIFFERS")
        out(f"{n:>7} {len(state.units):>6} {len(state.objectives):>5} {build * 1e3:>9.2f} "
            f"{total * 1e3:>11.2f} {base_s * 1e3:>12.1f} {format(ratio, '.0f') + 'x':>7}  "
            f"{d['without_ms']:>10.3f} {d['without_fresh_ms']:>8.2f} "
            f"{d['moved_ms']:>9.3f} {d['moved_fresh_ms']:>8.2f}  {note}")
        rows.append({"benchmark": "snapshot", "models": n, "units": len(state.units),
                     "objectives": len(state.objectives),
                     "snapshot_build_s": build, "snapshot_total_s": total,
                     "snapshot_ms": total * 1e3, "baseline_ms": base_s * 1e3, "runs": MAIN_RUNS,
                     "naive_s": base_s, "naive_extrapolated": False,
                     "naive_measured_on": f"all {total_pairs:,} pairs, exact shapes",
                     "ratio": ratio, "answers_agree": agree,
                     "engaged_unit_pairs": len(geo.engaged_unit_pairs),
                     "base_contacts": len(geo.base_contacts),
                     "without_ms": d["without_ms"], "without_fresh_ms": d["without_fresh_ms"],
                     "moved_ms": d["moved_ms"], "moved_fresh_ms": d["moved_fresh_ms"],
                     "derived_agree": d["without_agree"] and d["moved_agree"],
                     "wound_one_ms": d["without_ms"], "moved_one_ms": d["moved_ms"]})
    out("ratio = baseline ms / (+answers ms); wound one = Geometry.without (one casualty "
        "removed), moved one = Geometry.moved (one model moved 1\"), each beside a full "
        "snapshot of the same table (ms); issue 11's target: 1,000 models under 16.7 ms and "
        "at least 50x")
    return rows


BENCHMARK = Benchmark("snapshot", "geometry snapshot vs. an all-pairs loop on the same exact shapes",
                      run)
