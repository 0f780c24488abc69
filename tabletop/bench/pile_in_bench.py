"""Benchmark ``pile-in``: the pile-in solver (fight-phase.txt 12.03) for a unit of 20
against a unit of 20, and of 40 against 40, beside the naive grid search
(``tabletop.geometry.naive_pile_in``) moving the same models in the same run.

Each size is the number of models on the table: for each fight size in
``FIGHT_SIDES`` the fight is that many a side (half the models a side when
there are fewer, at least 1), in its own strip at the right of the table; the
other models are bystander units (``bench.layout.random_battlefield``).  The
fight, 11th preset, 32mm bases 0.2" apart in ranks of 5: red's front rank
1.5" from blue's (engaged), blue shifted half a base sideways, so the rear
ranks must find their way round the front.

Fights of ``LEGAL_FROM`` a side or more are timed twice: in ranks of 5 (a 40-model
unit in 8 ranks starts out of coherency, over the 9" spread, so that case also
times the coherency step's repairs; the output says so), and packed in staggered
rows of 6 and 7 (``cluster``), both units in coherency.

The naive search tests every candidate against every base on the table, on
the same exact shapes (round bases as centre and radius, numpy over each
model's candidates): it is run in full at every size, never extrapolated, and
its move is judged by the validator.  Times are CPU seconds
(``time.process_time``), medians of ``SOLVER_REPEATS`` and ``NAIVE_REPEATS``
runs.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from tabletop.bench import Benchmark
from tabletop.bench.layout import random_battlefield
from tabletop.board.bases import parse_base
from tabletop.board.config import make_config
from tabletop.board.state import Battlefield, Model, Player, Table, Unit
from tabletop.geometry import snapshot
from tabletop.geometry.moves import (
    PILE_IN_RULE,
    MoveSpec,
    pile_in_targets,
    solve_move,
    validate_move,
)
from tabletop.geometry.naive_pile_in import NaivePileIn

FIGHT_SIDE = 20
#: the fight sizes timed at each model count (models a side)
FIGHT_SIDES = (20, 40)
FILES = 5
SPACING = 0.2                 # inches between bases in a rank
FRONT_GAP = 1.5               # inches between the two front ranks
STRIP_GAP = 7.0               # inches from the bystanders' cells to the fight's first file
                              # (over 5" edge to edge: no bystander is a pile-in target)
NAIVE_GRID = 0.1              # inches between the naive search's candidates
SOLVER_REPEATS = 5            # CPU-time median of
NAIVE_REPEATS = 5
RED, BLUE = "pile-in-red", "pile-in-blue"
#: fights of at least this many a side are also timed with both units packed in
#: staggered rows (``legal=True``): the ranks of 5 of so large a unit start out of coherency
LEGAL_FROM = 40
#: models a row in turn of the units of the legal case (``legal=True``), in staggered rows
CLUSTER_ROWS = (6, 7)


def fight_side(n_models: int, side: int = FIGHT_SIDE) -> int:
    """Models a side in a fight of ``side`` a side for ``n_models`` on the table."""
    return max(1, min(side, n_models // 2))


def cluster_offsets(k: int, step: float) -> list[tuple[float, float]]:
    """Centres (dx, dy) of ``k`` bases packed ``step`` apart in staggered rows (a hex
    lattice: rows ``step`` x sqrt(3)/2 apart) of ``CLUSTER_ROWS`` models in turn, the
    last row shorter, each row centred on dx = 0; the front row at dy = 0, the rest
    behind it (dy < 0), front row first, each row left to right (the unit's order)."""
    out: list[tuple[float, float]] = []
    row = 0
    while len(out) < k:
        n = min(CLUSTER_ROWS[row % len(CLUSTER_ROWS)], k - len(out))
        dy = -row * step * math.sqrt(3.0) / 2.0
        out.extend(((i - (n - 1) / 2.0) * step, dy) for i in range(n))
        row += 1
    return out


def cluster(uid: str, player: str, x: float, y_front: float, k: int, base, step: float,
            back: float = 1.0) -> Unit:
    """A unit of ``k`` bases packed in staggered rows (``cluster_offsets``), front row at
    ``y_front``, centred on ``x``: 40 models 0.2" apart in rows of 6 and 7 keep within the
    9" spread (03.03; the farthest two 8.96" edge to edge), where 8 ranks of 5 do not.
    ``back``: +1 the rows go back toward -y (red), -1 toward +y (blue)."""
    models = tuple(Model(id=f"{uid}/{i + 1}", x=x + dx, y=y_front + back * dy, facing_deg=90.0,
                         base=base)
                   for i, (dx, dy) in enumerate(cluster_offsets(k, step)))
    return Unit(id=uid, player=player, base=base, models=models)


def pile_in_battlefield(n_models: int, seed: int = 0, side: int = FIGHT_SIDE,
                        legal: bool = False) -> Battlefield:
    """The fight (``fight_side`` a side) beside bystanders, ``n_models`` in all.

    ``legal``: both units are packed in staggered rows (``cluster``) instead of ranks
    of 5, so a large unit starts in coherency (8 ranks of 5 break the 9" spread: 10.5"
    edge to edge), blue's rows shifted half a base sideways from red's."""
    k = fight_side(n_models, side)
    rest = n_models - 2 * k
    others = random_battlefield(rest, seed) if rest > 0 else None
    base = parse_base("32mm")
    step = base.radius * 2 + SPACING
    x0 = (others.table.width if others else 0.0) + STRIP_GAP
    ranks = -(-k // FILES)
    y_front = 4.0 + ranks * step
    depth = max(others.table.depth if others else 0.0, y_front + FRONT_GAP + ranks * step + 4.0)

    def block(uid, player, x, y, dy):
        models = tuple(Model(id=f"{uid}/{i + 1}", x=x + (i % FILES) * step,
                             y=y + (i // FILES) * dy, facing_deg=90.0, base=base)
                       for i in range(k))
        return Unit(id=uid, player=player, base=base, models=models)

    red = (cluster(RED, "red", x0 + (FILES - 1) * step / 2, y_front, k, base, step) if legal
           else block(RED, "red", x0, y_front, -step))
    y_blue = y_front + 2 * base.radius + FRONT_GAP
    blue = (cluster(BLUE, "blue", x0 + FILES * step / 2, y_blue, k, base, step, -1.0) if legal
            else block(BLUE, "blue", x0 + step / 2, y_blue, step))
    return Battlefield(
        name=f"benchmark: pile-in {k} v {k} among {n_models} models",
        table=Table(x0 + FILES * step + 4.0, depth), rules=make_config("fight-phase"),
        units=(*(others.units if others else ()), red, blue),
        players=(Player("red", active=True), Player("blue")))


def _engaged(state, positions) -> int:
    after = snapshot(state.with_positions(positions))
    return sum(1 for m in after.unit_models(RED) if after.model_engaged(m))


def _median_cpu(work: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    """(median CPU seconds of ``repeats`` runs, the last run's result)."""
    times, out = [], None
    for _ in range(repeats):
        t0 = time.process_time()
        out = work()
        times.append(time.process_time() - t0)
    return sorted(times)[len(times) // 2], out


def run(sizes: list[int], seed: int, out: Callable[[str], None],
        repeat: int | None = None) -> list[dict[str, Any]]:
    """Time the solver and the naive grid search for each model count and fight size;
    print a table.  ``repeat`` (``tabletop bench --repeat N``) times each N times instead
    of ``SOLVER_REPEATS`` / ``NAIVE_REPEATS``."""
    solver_repeats = repeat or SOLVER_REPEATS
    naive_repeats = repeat or NAIVE_REPEATS
    out(f"pile-in: solve_move for a unit against a unit (fight-phase.txt 12.03) vs. naive "
        f"{NAIVE_GRID:g}\" grid search, every candidate against every base (same round "
        f"shapes, numpy), CPU s")
    out(f"{'models':>7} {'fight':>7} {'solver s':>9} {'naive s':>9} {'ratio':>7} "
        f"{'engaged':>8} {'naive':>6} {'checks':>13}  red unit")
    rows = []
    for n in sizes:
        cases = [(k, False) for k in sorted({fight_side(n, side) for side in FIGHT_SIDES})]
        cases += [(k, True) for k, _ in cases if k >= LEGAL_FROM]
        for k, legal in cases:
            state = pile_in_battlefield(n, seed, k, legal)
            geo = snapshot(state)
            coherent = RED not in geo.coherency
            layout = ("staggered rows" if legal else "ranks of 5") + \
                ("" if coherent else ", starts out of coherency")
            targets, _ = pile_in_targets(state, geo, RED)
            spec = MoveSpec("pile_in", RED, tuple(targets), state.rules.pile_in_distance,
                            PILE_IN_RULE)
            solver_s, plan = _median_cpu(lambda state=state, geo=geo, spec=spec: solve_move(state, geo, spec),
                                      solver_repeats)

            def naive_run(state=state, geo=geo, spec=spec):
                return NaivePileIn(state, geo, RED, spec.targets, spec.max_distance,
                                   NAIVE_GRID).run()
            checks = NaivePileIn(state, geo, RED, spec.targets, spec.max_distance,
                                 NAIVE_GRID).checks()
            naive_s, (n_pos, n_paths) = _median_cpu(naive_run, naive_repeats)
            naive_engaged = _engaged(state, n_pos)
            naive_legal = not validate_move(state, geo, spec, n_pos, n_paths)
            how = f"all, {checks:,} checks at most"
            ratio = naive_s / solver_s if solver_s > 0 else float("inf")
            engaged = _engaged(state, plan.positions)
            out(f"{n:>7} {f'{k}v{k}':>7} {solver_s:>9.3f} {naive_s:>9.2f} "
                f"{format(ratio, '.1f') + 'x':>7} {f'{engaged}/{k}':>8} {naive_engaged:>6} "
                f"{checks:>13,}  {layout}" + ("" if naive_legal else "  naive move ILLEGAL"))
            rows.append({"benchmark": "pile-in", "models": n, "fight_side": k,
                         "solver_s": solver_s, "naive_s": naive_s,
                         "naive_extrapolated": False, "naive_measured_on": how,
                         "ratio": ratio, "engaged": engaged, "naive_engaged": naive_engaged,
                         "violations": len(plan.violations), "naive_legal": naive_legal,
                         "cpu": True, "repeats": solver_repeats, "naive_repeats": naive_repeats,
                         "naive_checks": checks, "layout": layout,
                         "starts_in_coherency": coherent})
    out(f"CPU seconds, medians of {solver_repeats} (solver) and {naive_repeats} (naive) runs; "
        f"ratio = naive s / solver s; engaged = red models engaged after the move (naive: its "
        f"own move, run in full)")
    return rows


BENCHMARK = Benchmark("pile-in", "pile-in solver (20 v 20, 40 v 40) vs. naive grid search", run,
                      options=("repeat",))
