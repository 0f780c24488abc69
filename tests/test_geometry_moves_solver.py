"""The pile-in and consolidation solver as a whole (fight-phase.txt 12.03, 12.08):
its answer does not depend on where on the table the fight stands, it finds
coherent moves that need a model pointed back at its friends, and it makes no
move that gains nothing real (``solver.MIN_GAIN``).

32mm bases are 1.25984" across (radius 0.62992"), 25mm 0.98425" (0.49213"),
the tolerance is 0.02".
"""

from __future__ import annotations

import dataclasses

import pytest
from moves_support import MAPS, length, pile_in_spec, scenario

from tabletop.bench.pile_in_bench import BLUE, RED, pile_in_battlefield
from tabletop.board.mapfile import from_dict, load
from tabletop.board.state import Table
from tabletop.geometry import snapshot
from tabletop.geometry.moves import (
    CONSOLIDATE_RULE,
    PILE_IN_RULE,
    MoveSpec,
    consolidation_options,
    solve_move,
    validate_move,
)
from tabletop.geometry.solver import MIN_GAIN


def moved_by(state, dx: float, dy: float, width: float = 80.0, depth: float = 80.0):
    """``state`` on a ``width`` x ``depth`` table with every model shifted by (dx, dy)."""
    wider = dataclasses.replace(state, table=Table(width, depth))
    return wider.with_positions({m.id: (m.x + dx, m.y + dy) for m in state.models()})


def test_the_same_fight_translated_gives_the_same_moves_translated():
    # the benchmark fight (20 v 20, 32mm, ranks of 5, front ranks 1.5" apart), once
    # 20" and 20" from the table's corner and once a further (10, 7) along: far from
    # every edge both times, so the moves must be the same, shifted by (10, 7)
    fight = pile_in_battlefield(40, 0)
    spec = MoveSpec("pile_in", RED, (BLUE,), 3.0, PILE_IN_RULE)
    plans = []
    for dx, dy in ((20.0, 20.0), (30.0, 27.0)):
        state = moved_by(fight, dx, dy)
        plans.append((dx, dy, solve_move(state, snapshot(state), spec), state))
    (ax, ay, a, sa), (bx, by, b, sb) = plans
    assert a.violations == [] and b.violations == []
    assert sorted(a.positions) == sorted(b.positions)
    for m, (x, y) in a.positions.items():
        assert b.positions[m] == pytest.approx((x + 10.0, y + 7.0), abs=1e-6)
        assert len(b.paths[m]) == len(a.paths[m])
        for p, q in zip(a.paths[m], b.paths[m]):
            assert q == pytest.approx((p[0] + 10.0, p[1] + 7.0), abs=1e-6)
    assert a.order == b.order
    # engaged after the move: ranks 1-3 (15 models).  Rank 4 starts 5.92" from blue's
    # nearest model (centres 0.73" across and 3 x 1.45984 + 2.75984 = 7.13937" apart:
    # sqrt(0.73^2 + 7.13937^2) - 1.25984 = 5.917"): 3" of move leaves it 2.92" > 2" away
    after = snapshot(a.state_after(sa))
    engaged = [m for m in after.unit_models(RED) if after.model_engaged(m)]
    assert len(engaged) == 15
    assert not any(m in engaged for m in (f"{RED}/{k}" for k in range(16, 21)))


def test_a_model_is_pointed_back_at_its_friend_to_keep_coherency():
    state, geo = scenario("pile_in_cohere_back")
    assert geo.in_coherency("r")                       # 2.01575" <= 2" + 0.02"
    assert geo.distance("r/1", "b") == pytest.approx(4.40091, abs=1e-4)
    assert geo.distance("r/2", "b") == pytest.approx(5.34031, abs=1e-4)
    spec = pile_in_spec(state, geo)
    # the auditor's hand-made move is legal: the solver must find one too
    legal = {"r/1": (14.886, 26.215), "r/2": (17.4, 26.8)}
    assert validate_move(state, geo, spec, legal) == []
    plan = solve_move(state, geo, spec)
    assert plan.violations == []
    after = snapshot(plan.state_after(state))
    assert after.in_coherency("r")
    assert after.model_engaged_with_unit("r/1", "b")   # 4.40 - 3 = 1.40" <= 2": it must
    assert not after.model_engaged("r/2")              # 5.34 - 3 = 2.34" > 2": it cannot
    for m in ("r/1", "r/2"):                           # every moved model ends closer
        assert after.distance(m, "b") < geo.distance(m, "b") - state.rules.tol
        assert length(plan.paths[m]) <= 3.0 + state.rules.tol
    assert after.distance("r/1", "r/2") <= 2.0 + state.rules.tol


def test_engaging_consolidation_toward_two_units_finds_the_narrow_windows():
    state, geo = scenario("consolidate_engaging_two")
    assert consolidation_options(state, geo, "r") == ("engaging", ["x", "y"])
    spec = MoveSpec("engaging", "r", ("x", "y"), 3.0, CONSOLIDATE_RULE)
    assert validate_move(state, geo, spec, {"r/1": (19.15, 20.0), "r/2": (22.35, 20.0)}) == []
    # 1" each along their own paths is not enough: 3.5 - 1.25984 = 2.24" apart
    assert [v.message for v in validate_move(state, geo, spec,
                                             {"r/1": (19.0, 20.0), "r/2": (22.5, 20.0)})] == [
        'r/1 ends out of coherency (03.03): within 2" of 0 other models, needs 1 (12.08)',
        'r/2 ends out of coherency (03.03): within 2" of 0 other models, needs 1 (12.08)']
    plan = solve_move(state, geo, spec)
    assert plan.violations == []
    after = snapshot(plan.state_after(state))
    assert after.engaged_units("r") == ["x", "y"]
    assert after.in_coherency("r")
    # the windows worked out in the scenario: r/1 x in [19.04, 19.18], r/2 x >= 22.32
    # (measured along the line; the solver may step off it a little)
    assert after.distance("r/1", "x") <= 2.0 + state.rules.tol
    assert after.distance("r/2", "y") <= 2.0 + state.rules.tol


def test_no_shuffle_of_hundredths_of_an_inch():
    state, geo = scenario("consolidate_boxed")
    assert consolidation_options(state, geo, "r") == ("ongoing", ["e"])
    assert geo.distance("r/2", "e") == pytest.approx(2.27569, abs=1e-4)
    spec = MoveSpec("ongoing", "r", ("e",), 3.0, CONSOLIDATE_RULE)
    plan = solve_move(state, geo, spec)
    # r/1 touches e/1 (cannot be moved); r/2 could gain at most 2.27569 - 2.24741 = 0.028"
    # (its box's far corner), under MIN_GAIN: nobody moves, and that is legal
    assert MIN_GAIN == 0.1
    assert plan.positions == {} and plan.violations == []


def test_closing_the_last_hundredths_to_base_contact_is_no_move():
    # r/1 0.05" below e/1 (centres 1.25984 + 0.05 apart), engaged already (0.05 <= 2"): into
    # base contact it would gain 0.05" < MIN_GAIN and engage nothing new, so it stays
    state = from_dict({
        "map": {"name": "short", "ruleset": "fight-phase", "width": 44, "depth": 44},
        "players": [{"id": "red", "active": True}, {"id": "blue"}],
        "units": [{"id": "r", "player": "red", "base": "32mm", "models": [[20, 18.69016]]},
                  {"id": "e", "player": "blue", "base": "32mm", "models": [[20, 20]]}]})
    geo = snapshot(state)
    assert geo.distance("r/1", "e") == pytest.approx(0.05, abs=1e-5)
    spec = pile_in_spec(state, geo)
    # the rule allows it (0.05" closer, more than the 0.02" tolerance) ...
    assert validate_move(state, geo, spec, {"r/1": (20.0, 18.74016)}) == []
    # ... the solver does not propose it
    plan = solve_move(state, geo, spec)
    assert plan.positions == {} and plan.violations == []


def test_a_short_move_that_engages_is_made():
    state, geo = scenario("pile_in_boxed_engages")
    assert geo.distance("r/1", "e") == pytest.approx(1.06, abs=1e-4)
    assert not geo.model_engaged("r/1")                # 1.06 > 1" + 0.02" ("10th")
    plan = solve_move(state, geo, pile_in_spec(state, geo))
    assert plan.violations == []
    after = snapshot(plan.state_after(state))
    assert after.model_engaged_with_unit("r/1", "e")
    # at most 0.05 x sqrt(2) = 0.0707" of move in the box: under MIN_GAIN, made anyway
    assert length(plan.paths["r/1"]) <= 0.0707 + 1e-3
    assert geo.distance("r/1", "e") - after.distance("r/1", "e") < MIN_GAIN


def test_the_lesson_boyz_do_not_shuffle():
    # maps/lessons/pile-in.toml, the pile-in step of `tabletop fight --seed 3`: after the
    # marines pile in, intercessors/4 ends 0.05" from boyz/2; boyz/2 used to close that gap
    # by 0.03" into base contact, a move that gains nothing (MIN_GAIN)
    state = load(str(MAPS / "lessons/pile-in.toml"))
    geo = snapshot(state)
    marines = solve_move(state, geo, pile_in_spec(state, geo, "intercessors"))
    assert marines.violations == []
    mid = marines.state_after(state)
    mgeo = snapshot(mid)
    assert not mgeo.in_base_contact("boyz/2", "intercessors/4")
    boyz = solve_move(mid, mgeo, pile_in_spec(mid, mgeo, "boyz"))
    assert "boyz/2" not in boyz.positions and boyz.violations == []
