"""The pile-in benchmark's pieces: its layout is legal, the naive grid search and the
solver make moves the validator can judge, and ``tabletop bench --only pile-in`` runs.
No timing is asserted here (speed is measured only by ``tabletop bench``)."""

from __future__ import annotations

import json
import math

import pytest

from tabletop.bench.pile_in_bench import (
    BLUE,
    CLUSTER_ROWS,
    NAIVE_REPEATS,
    RED,
    SOLVER_REPEATS,
    cluster_offsets,
    fight_side,
    pile_in_battlefield,
)
from tabletop.cli import main
from tabletop.geometry import snapshot
from tabletop.geometry.moves import PILE_IN_RULE, MoveSpec, solve_move, validate_move
from tabletop.geometry.naive_pile_in import NaivePileIn, candidates


def test_fight_sizes():
    assert [fight_side(n) for n in (2, 12, 40, 200, 5000)] == [1, 6, 20, 20, 20]


def test_layout_is_legal_and_the_front_ranks_engaged():
    state = pile_in_battlefield(60, 0)
    geo = snapshot(state)
    assert len(state.unit(RED).models) == len(state.unit(BLUE).models) == 20
    assert sum(len(u.models) for u in state.units) == 60
    assert geo.overlaps == [] and geo.off_table == [] and geo.coherency == {}
    # front ranks 1.5" apart (engaged, 11th); bystanders start 7" right of their cells'
    # edge: 7 + 0.3 margin - 0.63 - 0.79 (40mm) = 5.88" > 5": none is even a pile-in target
    assert geo.engaged_units(RED) == [BLUE]
    assert geo.enemy_units_within(RED, 5.0) == [BLUE]


def test_naive_candidates_fill_the_3_inch_disc():
    # 0.1" grid: lattice points (i, j) with 0 < i^2 + j^2 <= 30^2: 2821 with i^2 + j^2 <= 900
    # (Gauss's circle count for radius 30), less the start itself
    assert len(candidates((0.0, 0.0), 3.0, 0.1)) == 2820


def test_default_repeats_are_at_least_five():
    assert SOLVER_REPEATS >= 5 and NAIVE_REPEATS >= 5


def test_naive_and_solver_moves_on_a_small_fight():
    state = pile_in_battlefield(8, 0)            # 4 a side, no bystanders
    geo = snapshot(state)
    spec = MoveSpec("pile_in", RED, (BLUE,), 3.0, PILE_IN_RULE)
    plan = solve_move(state, geo, spec)
    assert plan.violations == []
    positions, paths = NaivePileIn(state, geo, RED, (BLUE,), 3.0, 0.25).run()
    broken = validate_move(state, geo, spec, positions, paths)
    # straight paths, no overlap, never more than 3": only unit clauses may fail
    assert all("moved" not in v.message and "overlapping" not in v.message for v in broken)


def test_bench_command_runs_pile_in(capsys):
    assert main(["bench", "--only", "pile-in", "--sizes", "4", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["benchmarks"]
    assert [(r["benchmark"], r["models"], r["fight_side"]) for r in rows] == [("pile-in", 4, 2)]
    assert rows[0]["ratio"] > 0 and rows[0]["violations"] == 0


def test_naive_numpy_search_makes_the_plain_searchs_moves():
    # the benchmark's baseline (numpy over each model's candidates) against the same
    # search one Shapely check at a time: the same moves, model for model
    state = pile_in_battlefield(12, 0)           # 6 a side, no bystanders
    geo = snapshot(state)
    fast = NaivePileIn(state, geo, RED, (BLUE,), 3.0, 0.25).run()
    plain = NaivePileIn(state, geo, RED, (BLUE,), 3.0, 0.25).run_plain()
    assert sorted(fast[0]) == sorted(plain[0]) and fast[0]
    for m, p in plain[0].items():
        assert fast[0][m] == pytest.approx(p, abs=1e-9)


def test_bench_runs_the_naive_search_in_full_and_times_40_v_40(capsys):
    assert main(["bench", "--only", "pile-in", "--sizes", "80", "--repeat", "1",
                 "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["benchmarks"]
    # 80 models: a 20 v 20 fight among 40 bystanders, and a 40 v 40 fight alone, in
    # ranks of 5 (starting out of coherency) and packed in staggered rows (in coherency)
    assert [(r["models"], r["fight_side"], r["layout"], r["starts_in_coherency"])
            for r in rows] == [(80, 20, "ranks of 5", True),
                               (80, 40, "ranks of 5, starts out of coherency", False),
                               (80, 40, "staggered rows", True)]
    for r in rows:
        assert r["naive_extrapolated"] is False and r["naive_engaged"] is not None
        assert r["cpu"] is True and r["repeats"] == 1 and r["naive_repeats"] == 1
        assert r["naive_checks"] > 0 and r["naive_s"] > 0


@pytest.mark.parametrize("side,least", [(20, 15), (40, 14)])
def test_bench_fight_engages_as_many_as_before(side, least):
    # issue 11 item 1: the bench's fights engaged 15 of 20 and 14 of 40 red models
    # before the straight legs and memoised routes; at least as many now.  The 20 v 20
    # move is legal; the 40 v 40 unit starts out of coherency (8 ranks 1.46" apart: its
    # corners are 11.77" centre to centre, 10.5" edge to edge, over the 9" spread), so only
    # coherency clauses may be left, none of the move's own.
    state = pile_in_battlefield(2 * side, 0, side)
    geo = snapshot(state)
    from tabletop.geometry.moves import pile_in_targets
    targets, _ = pile_in_targets(state, geo, RED)
    spec = MoveSpec("pile_in", RED, tuple(targets), state.rules.pile_in_distance, PILE_IN_RULE)
    plan = solve_move(state, geo, spec)
    after = snapshot(state.with_positions(plan.positions))
    engaged = sum(1 for m in after.unit_models(RED) if after.model_engaged(m))
    assert engaged >= least
    found = validate_move(state, geo, spec, plan.positions, plan.paths)
    if side == 20:
        assert found == []
    else:
        assert all("coherency" in str(v) for v in found)


def test_cluster_rows_of_6_and_7_staggered():
    # 40 models: rows of 6, 7, 6, 7, 6, 7 (39) and one more, each row centred, rows
    # 1.46 x sqrt(3)/2 = 1.2644" apart (32mm = 1.2598" bases 0.2" apart: 1.4598" step)
    assert CLUSTER_ROWS == (6, 7)
    off = cluster_offsets(40, 1.46)
    rows = sorted({round(y, 6) for _, y in off}, reverse=True)
    assert [sum(1 for _, y in off if round(y, 6) == r) for r in rows] == [6, 7, 6, 7, 6, 7, 1]
    assert rows[1] == pytest.approx(-1.46 * 3 ** 0.5 / 2)
    assert off[0] == pytest.approx((-2.5 * 1.46, 0.0))
    assert off[6] == pytest.approx((-3 * 1.46, -1.2644), abs=1e-4)


def test_the_legal_40_v_40_starts_in_coherency():
    # the 40 v 40 in ranks of 5 breaks the 9" spread (10.5" edge to edge); packed in
    # staggered rows the farthest two red models are the front row's left end (-2.5
    # steps, row 0) and row 5's right end (+3 steps): dx = 5.5 x 1.4598 = 8.029, dy =
    # 5 x 1.2642 = 6.321, centre to centre 10.219", less 2 x 0.6299" radii = 8.959" < 9"
    state = pile_in_battlefield(80, 0, 40, legal=True)
    geo = snapshot(state)
    assert geo.overlaps == [] and geo.off_table == [] and geo.coherency == {}
    assert geo.engaged_units(RED) == [BLUE]
    red = state.unit(RED).models
    far = max(math.dist(a.at, b.at) for a in red for b in red) - 2 * red[0].base.radius
    assert far == pytest.approx(8.959, abs=1e-3)
    old = snapshot(pile_in_battlefield(80, 0, 40))
    assert RED in old.coherency and BLUE in old.coherency
