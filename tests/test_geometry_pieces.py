"""Long geometry work in pieces (geometry/pieces.py, solver.solve_steps) and the window's
session cutting a solve in steps (app/interactive.py ``SOLVER_STEPS_PER_PIECE``).

Nothing here is timed: the work per piece is counted in steps.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from tabletop.app import interactive
from tabletop.app.interactive import PlaySession
from tabletop.bench.pile_in_bench import RED, pile_in_battlefield
from tabletop.board import mapfile
from tabletop.geometry import pieces, snapshot
from tabletop.geometry.cohere import UnitCoherency
from tabletop.geometry.moves import (
    PILE_IN_RULE,
    MoveSpec,
    pile_in_targets,
    solve_move,
    validate_move,
)
from tabletop.geometry.solver import solve_steps

ROOT = Path(__file__).resolve().parents[1]
LAYOUT = str(ROOT / "maps" / "ca-layout-1-hammer-and-anvil.toml")


def _three_yields():
    for _ in range(3):
        yield
    return 7


def test_run_without_a_budget_runs_to_the_end():
    assert pieces.run("k", _three_yields) == 7


def test_run_with_a_budget_stops_and_goes_on_where_it_stopped():
    b = pieces.Budget(2)
    with pieces.active(b):
        # next 1 and next 2 yield (2 steps), then the budget (2) is spent
        with pytest.raises(pieces.OutOfSteps):
            pieces.run("k", _three_yields)
        assert b.used == 2
        b.refill()
        # next 3 yields (step 3), next 4 returns 7 (step 4): 2 steps this piece
        assert pieces.run("k", _three_yields) == 7
        assert (b.used, b.total) == (2, 4)
        b.refill()
        assert pieces.run("k", _three_yields) == 7      # done: no step more
        assert b.used == 0


def test_a_budget_needs_a_step():
    with pytest.raises(ValueError):
        pieces.Budget(0)


def _bench_case():
    state = pile_in_battlefield(40)             # 20 v 20, no bystanders
    geo = snapshot(state)
    targets, _ = pile_in_targets(state, geo, RED)
    return state, geo, MoveSpec("pile_in", RED, tuple(targets), state.rules.pile_in_distance,
                                PILE_IN_RULE)


def test_the_bench_case_engages_as_many_as_before_and_stays_legal():
    state, geo, spec = _bench_case()
    plan = solve_move(state, geo, spec)
    assert plan.violations == []
    assert validate_move(state, geo, spec, plan.positions, plan.paths) == []
    after = snapshot(state.with_positions(plan.positions))
    engaged = sum(1 for m in after.unit_models(RED) if after.model_engaged(m))
    # red ranks 1-3 (15 models) can end within 2" of blue's front rank: rank 3 starts
    # 1.5 + 2 x 1.46 = 4.42" from it, 4.42 - 3 = 1.42 <= 2; rank 4 5.88 - 3 = 2.88 > 2.
    # Before this change the solver engaged 15 (measured on e478607): at least that.
    assert engaged >= 15


def test_a_solve_cut_in_steps_gives_the_same_plan():
    state, geo, spec = _bench_case()
    whole = solve_move(state, geo, spec)
    b = pieces.Budget(1)
    calls = 0
    with pieces.active(b):
        while True:
            b.refill()
            calls += 1
            try:
                cut = solve_move(state, geo, spec)
                break
            except pieces.OutOfSteps:
                assert b.used == 1                 # one step a piece, never more
    # every model of the 20 is a step of the first pass at least
    assert calls > 20
    assert cut.positions == whole.positions and cut.paths == whole.paths
    assert b.total == calls                      # one step per call, the last one returns
    assert sum(1 for _ in solve_steps(state, geo, spec)) == calls - 1


def test_score_moving_matches_the_whole_matrix():
    class Rules:
        coherency_range = 2.0
        coherency_spread = None

        @staticmethod
        def coherency_needed(n):
            return 1

    u = UnitCoherency.__new__(UnitCoherency)
    u.ctx, u.n, u.ids, u.rules, u.tol, u.round = None, 3, ["a", "b", "c"], Rules(), 0.01, True
    u.radius = np.full(3, 0.5)
    at = [(0.0, 0.0), (2.0, 0.0), (4.0, 0.0)]      # 1" edge to edge in a line
    bad, short = u.score_moving(2, [(7.0, 0.0), (4.5, 0.0)], at)
    # c at (7, 0): 7 - 2 - 1 = 4" from b, 2" beyond coherency: c out, 2" short;
    # c at (4.5, 0): 1.5" from b: all in
    assert bad.tolist() == [1, 0]
    assert short.tolist() == pytest.approx([2.0, 0.0])


@pytest.fixture
def one_piece_a_poll(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", os.environ.get("SDL_VIDEODRIVER", "dummy"))
    monkeypatch.setattr(interactive, "POLL_WORK", 1)   # a poll: one piece (each costs at least 1)


def _play(steps: int | None, monkeypatch) -> tuple[PlaySession, list, list[int]]:
    if steps is not None:
        monkeypatch.setattr(interactive, "SOLVER_STEPS_PER_PIECE", steps)
    s = PlaySession(mapfile.load(LAYOUT), seed=1)
    s.use_defaults = True
    s.start()
    used, out = [], []
    while not s.finished:
        out += s.poll()
        used.append(s.budget.used)
    return s, out, used


def test_a_poll_runs_at_most_one_solver_step_and_the_phase_is_the_same(one_piece_a_poll,
                                                                        monkeypatch):
    sliced, out, used = _play(None, monkeypatch)
    assert interactive.SOLVER_STEPS_PER_PIECE == 1
    assert sliced.resolution is not None
    assert max(used) <= 1                         # counted, not timed
    assert sliced.budget.total > 100              # the layout's solves: many steps, many polls
    whole, out_whole, _ = _play(10 ** 9, monkeypatch)
    events = [v.to_dict() for k, v in out if k == "event"]
    assert len(events) > 50
    assert events == [v.to_dict() for k, v in out_whole if k == "event"]


def test_the_target_search_is_cut_in_solver_steps_too(one_piece_a_poll, monkeypatch):
    """The default policy's pile-in target search (fight_phase.targets: one solve per
    selection tried) runs in pieces of SOLVER_STEPS_PER_PIECE solver steps like a row.
    Counted: every step any solve makes (cut or not) goes through ``solve_steps``."""
    from tabletop.geometry import solver

    made = {"steps": 0}
    real = solver.solve_steps

    def counted(state, geo, spec):
        gen = real(state, geo, spec)
        while True:
            try:
                next(gen)
            except StopIteration as stop:
                made["steps"] += 1              # the last step returns the plan
                return stop.value
            made["steps"] += 1
            yield

    monkeypatch.setattr(solver, "solve_steps", counted)
    s = PlaySession(mapfile.load(LAYOUT), seed=1)
    s.use_defaults = True
    s.start()
    per_poll, searched = [], 0
    while not s.finished:
        made["steps"] = 0
        pending = s._phase.pending if s._phase is not None else None
        s.poll()
        per_poll.append(made["steps"])
        searched += hasattr(getattr(pending, "default_fn", None), "searched") \
            and made["steps"] > 0                # a poll that searched
    assert s.resolution is not None
    # seed 1 asks pile_in_targets for an unengaged unit with more than one enemy unit within
    # 5": its search solves at least one selection, over several polls
    assert searched >= 2
    # one poll = one piece (POLL_WORK = 1) = at most one solver step, search included
    # (before: the whole search, tens of steps, ran in the one poll that asked the policy)
    assert max(per_poll) <= 1


def test_has_scripted_peeks_without_taking():
    from tabletop.board.state import Decision
    from tabletop.rules.decisions import Decisions

    d = Decisions([Decision("red", "pile_in_targets", "B1"), Decision("blue", "fight_next", "U")])
    assert d.has_scripted("red", "pile_in_targets")
    assert d.has_scripted("red", "pile_in_targets")        # asking takes nothing
    assert not d.has_scripted("blue", "pile_in_targets")   # another player's choice
    assert d.choose("red", "pile_in_targets", ["B1", "B2"]) == "B1"
    assert not d.has_scripted("red", "pile_in_targets")    # the one entry is taken
    assert d.has_scripted("blue", "fight_next")
