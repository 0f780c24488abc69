"""Benchmark ``fight-scale``: how a whole fight grows with the models on the table
(issue 11: "a whole ``fight`` on the 60x44 layout near-linear in the models").

For each shipped table in ``MAPS`` it resolves the whole combat phase
(``cli.fight_cmd.resolve``: the map's ruleset, seeded dice, the default
decisions) on the table and on ``COPIES`` copies of it side by side
(``tiled``: each copy ``GAP`` inches from the next, farther than any move,
charge or range, so no unit of one copy can reach another's), beside the same
number of separate fights of one copy, really run in the same session.  A fight
that grows linearly in the models costs about as much on k copies as k separate
fights (``x separate`` near 1); one that rebuilds the whole table's geometry
after every wound, or tests every pair, costs k times more per copy.
``exponent`` is log(t_k / t_1) / log k: 1 is linear.

The dice differ between the tiled table and the separate fights (one stream
of rolls against k), so the copies do not fight alike to the roll; the
separate fights use seeds ``seed``, ``seed + 1``, ... so they vary as the
copies do.  Times are CPU seconds (``time.process_time``), medians of
``REPEATS`` runs (``--repeat N``); the map's scripted decisions are left out
(their ids name one copy), the default answers are used throughout.
"""

from __future__ import annotations

import dataclasses
import math
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tabletop.bench import Benchmark

ROOT = Path(__file__).resolve().parents[2]
#: (short name, map file under the repository root)
MAPS = (("60x44 layout", "maps/ca-layout-1-hammer-and-anvil.toml"),
        ("old world 72x48", "maps/old-world-72x48.toml"))
#: copies of the table side by side, timed in turn
COPIES = (1, 2, 4)
#: inches between one copy's right edge and the next copy's left edge
GAP = 24.0
REPEATS = 5
#: issue 11's reading of "near-linear": a whole fight on k copies costs at most this
#: many times k separate fights of one copy
NEAR_LINEAR = 1.25


def _shift(pt, dx: float):
    return (pt[0] + dx, pt[1])


def tiled(state, copies: int, gap: float = GAP):
    """``copies`` copies of ``state`` side by side on one table (``copies`` x width +
    gaps wide, inches).  Copy k's unit, terrain and objective ids end in ``~k`` (k >= 2;
    the first keeps its own; a model ``unit/3`` becomes ``unit~k/3``), everything in it
    shifted ``k - 1`` table widths and gaps right.  The scripted decisions are dropped
    (they name one copy's ids)."""
    from tabletop.board.state import Battlefield, Table

    w = state.table.width
    units, terrain, objectives, deployment = [], [], [], []
    for k in range(copies):
        dx = k * (w + gap)
        tag = "" if k == 0 else f"~{k + 1}"
        for u in state.units:
            models = tuple(dataclasses.replace(m, id=u.id + tag + m.id[len(u.id):], x=m.x + dx)
                           for m in u.models)
            formation = u.formation
            if formation is not None:
                formation = dataclasses.replace(formation,
                                                front_centre=_shift(formation.front_centre, dx))
            units.append(dataclasses.replace(u, id=u.id + tag, models=models,
                                             formation=formation))
        for t in state.terrain:
            terrain.append(dataclasses.replace(
                t, id=t.id + tag, polygon=tuple(_shift(p, dx) for p in t.polygon), rect=None,
                tall_part=None if t.tall_part is None else tuple(_shift(p, dx)
                                                                 for p in t.tall_part)))
        for o in state.objectives:
            objectives.append(dataclasses.replace(o, id=o.id + tag, at=_shift(o.at, dx)))
        for d in state.deployment:
            deployment.append(dataclasses.replace(
                d, polygon=tuple(_shift(p, dx) for p in d.polygon)))
    return Battlefield(
        name=f"{state.name} x {copies}",
        table=Table(copies * w + (copies - 1) * gap, state.table.depth), rules=state.rules,
        players=state.players, units=tuple(units), terrain=tuple(terrain),
        objectives=tuple(objectives), deployment=tuple(deployment), decisions=())


def _import_all() -> None:
    """Import every module of the rules and the geometry (the commands import them
    lazily): a timed run then measures the fight, not the imports."""
    import importlib
    import pkgutil

    import tabletop.geometry
    import tabletop.rules
    for pkg in (tabletop.geometry, tabletop.rules):
        for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            importlib.import_module(info.name)


def cold_run(rel: str, copies: int, seed: int) -> None:
    """In a fresh process: load ``rel``, tile it ``copies`` times, import the modules,
    then time one whole fight (``resolve``); print ``{"cpu_s": ..., "events": ...}``."""
    import json

    from tabletop.board.mapfile import load
    from tabletop.cli.fight_cmd import resolve

    state = tiled(dataclasses.replace(load(str(ROOT / rel)), decisions=()), copies)
    _import_all()
    t0 = time.process_time()
    res = resolve(state, seed)
    cpu = time.process_time() - t0
    print(json.dumps({"cpu_s": cpu, "events": len(res.log.events)}))


def _cold(rel: str, copies: int, seed: int) -> tuple[float, int]:
    import json
    import subprocess
    import sys

    from tabletop.bench.odds_bench import child_env
    code = ("import sys; from tabletop.bench.fight_scale_bench import cold_run; "
            "cold_run(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))")
    out = subprocess.run([sys.executable, "-c", code, rel, str(copies), str(seed)], check=True,
                         capture_output=True, text=True, cwd=str(ROOT), env=child_env())
    d = json.loads(out.stdout.strip().splitlines()[-1])
    return float(d["cpu_s"]), int(d["events"])


def run(sizes: list[int], seed: int, out: Callable[[str], None],
        repeat: int | None = None) -> list[dict[str, Any]]:
    """Time each map's whole fight on 1, 2 and 4 copies and as that many separate
    fights, every fight in a fresh process (``cold_run``: no cache of another run
    helps); print a table (``sizes`` is not used: the tables are the shipped maps)."""
    repeats = repeat or REPEATS
    out("fight-scale: a whole fight phase (resolve, default decisions) on a shipped table and "
        "on copies of it side by side, vs. as many separate fights of one copy; CPU s, "
        f"medians of {repeats} runs, each fight in a fresh process")
    out(f"{'table':<16} {'copies':>6} {'models':>7} {'tiled s':>8} {'separate s':>11} "
        f"{'x separate':>10} {'exponent':>8}  {'events':>7}")
    rows: list[dict[str, Any]] = []
    from tabletop.board.mapfile import load
    for name, rel in MAPS:
        one = load(str(ROOT / rel))
        n_one = sum(len(u.models) for u in one.units)
        _cold(rel, 1, seed)                           # untimed: compiles the modules
        first: float | None = None
        for k in COPIES:
            tiled_times, sep_times, events = [], [], 0
            for _ in range(repeats):
                t, events = _cold(rel, k, seed)
                tiled_times.append(t)
                sep_times.append(sum(_cold(rel, 1, seed + i)[0] for i in range(k)))
            t_tiled = statistics.median(tiled_times)
            t_sep = statistics.median(sep_times)
            if first is None:
                first = t_tiled
            exponent = math.log(t_tiled / first) / math.log(k) if k > 1 and first > 0 else 1.0
            ratio = t_tiled / t_sep if t_sep > 0 else float("inf")
            out(f"{name:<16} {k:>6} {k * n_one:>7} {t_tiled:>8.3f} {t_sep:>11.3f} "
                f"{ratio:>9.2f}x {exponent:>8.2f}  {events:>7}")
            rows.append({"benchmark": "fight-scale", "table": name, "map": rel, "copies": k,
                         "models": k * n_one, "tiled_s": t_tiled, "separate_s": t_sep,
                         "x_separate": ratio, "exponent": exponent, "cpu": True,
                         "repeats": repeats, "events": events,
                         "near_linear": ratio <= NEAR_LINEAR})
    out(f"x separate = tiled s / separate s (as many one-copy fights, each really run in its "
        f"own process); exponent = log(t_k / t_1) / log k, 1 = linear; near-linear: x separate "
        f"at most {NEAR_LINEAR:g}")
    return rows


BENCHMARK = Benchmark("fight-scale", "whole fight on 1, 2, 4 copies of a table vs. separate fights",
                      run, options=("repeat",))
