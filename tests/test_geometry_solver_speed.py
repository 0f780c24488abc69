"""The pile-in solver's shortcuts (issue 11 item 1) give the same moves with less
work: the validator is asked once per set of moves (``_Solver.found``), a
coherency repair is not searched for a model whose move cannot help
(``UnitCoherency.cannot_help``, core rules 03.03 as kept by fight-phase.txt
12.03), and the rings of spots round a base are built once (``ring_offsets``).

32mm bases: radius 0.629921" (32 / 25.4 / 2), 1.259843" across; the 11th-edition
preset: coherency 2" of one other model, every model within 9" of every other,
tolerance 0.02".
"""

from __future__ import annotations

import numpy as np
import pytest

from tabletop.board.bases import parse_base
from tabletop.board.mapfile import from_dict
from tabletop.geometry import snapshot
from tabletop.geometry import solver as solver_mod
from tabletop.geometry.cohere import UnitCoherency
from tabletop.geometry.moves import PILE_IN_RULE, MoveSpec, pile_in_targets
from tabletop.geometry.movespec import MoveContext
from tabletop.geometry.paths import ring_offsets


def _state(reds, blues=((30.0, 30.0),)):
    return from_dict({
        "map": {"name": "speed", "ruleset": "fight-phase", "width": 44, "depth": 44},
        "rules": {"edition": "11th"},
        "players": [{"id": "red", "active": True}, {"id": "blue"}],
        "units": [{"id": "r", "player": "red", "base": "32mm", "models": [list(p) for p in reds]},
                  {"id": "b", "player": "blue", "base": "32mm",
                   "models": [list(p) for p in blues]}]})


def _coherency(reds):
    state = _state(reds)
    ctx = MoveContext(state, snapshot(state), MoveSpec("pile_in", "r", ("b",), 3.0,
                                                       PILE_IN_RULE))
    return UnitCoherency(ctx), list(reds)


def test_a_spread_only_failure_cannot_be_helped_by_a_model_in_coherency():
    # A (10, 10), B (11.46, 10), C (19.6, 10), D (21.06, 10): A-B and C-D 0.200157"
    # apart (1.46 - 1.259843, within 2"); A-C and B-D 8.340157" (9.6 - 1.259843,
    # within 9"); A-D 9.800157" (11.06 - 1.259843): more than 9", so A and D are out,
    # each 0.800157" over: 2 out, shortfall 1.600315".  Moving B or C changes no gap
    # between A and D: neither can bring the unit nearer coherency; A can.
    coh, at = _coherency([(10.0, 10.0), (11.46, 10.0), (19.6, 10.0), (21.06, 10.0)])
    bad, short = coh.score(at)
    assert bad == {"r/1", "r/4"}
    assert short == pytest.approx(2 * (11.06 - 2 * 32 / 25.4 / 2 - 9.0))   # 1.600315
    assert coh.cannot_help(1, at, 2, short)            # B
    assert coh.cannot_help(2, at, 2, short)            # C
    assert not coh.cannot_help(0, at, 2, short)        # A is out itself
    # the bound agrees with the spot-by-spot score: no spot for B is better
    spots = [(x / 2.0, y / 2.0) for x in range(16, 40) for y in range(14, 26)]
    nbad, nshort = coh.score_moving(1, spots, at)
    assert not ((nbad < 2) | ((nbad == 2) & (nshort < short - 1e-9))).any()


def test_a_model_short_of_its_neighbour_can_be_helped():
    # A (10, 10), B (11.46, 10), C (20.5, 10): A-C 9.240157" (10.5 - 1.259843): A and C
    # out by the spread (0.240157" each); C's nearest friend B is 7.780157" away
    # (9.04 - 1.259843), 5.780157" over 2".  Shortfall 0.240157 * 2 + 5.780157 =
    # 6.260472": B moving toward C could cut C's part, so the bound does not hold.
    coh, at = _coherency([(10.0, 10.0), (11.46, 10.0), (20.5, 10.0)])
    bad, short = coh.score(at)
    assert bad == {"r/1", "r/3"}
    assert short == pytest.approx(2 * 0.240157 + 5.780157, abs=1e-5)
    assert not coh.cannot_help(1, at, 2, short)
    # and indeed B 1.7" east, at (13.16, 10), keeps A 1.900157" away (3.16 - 1.259843,
    # within 2") and leaves C 6.080157" from B (7.34 - 1.259843), 4.080157" over:
    # still 2 out, shortfall 0.240157 * 2 + 4.080157 = 4.560472", less than 6.260472"
    nbad, nshort = coh.score_moving(1, [(13.16, 10.0)], at)
    assert nbad[0] == 2
    assert nshort[0] == pytest.approx(2 * 0.240157 + 4.080157, abs=1e-5)


def test_the_validator_is_asked_once_per_set_of_moves(monkeypatch):
    # red (10, 10) 32mm, blue (10, 13): 3 - 1.259843 = 1.740157" apart, within 2" of
    # engagement; the solver asks the validator about the same moves again and again
    # (each pass's quality, the prune, the coherency step): it must check each once.
    state = _state([(10.0, 10.0)], [(10.0, 13.0)])
    geo = snapshot(state)
    targets, _ = pile_in_targets(state, geo, "r")
    spec = MoveSpec("pile_in", "r", tuple(targets), 3.0, PILE_IN_RULE)
    seen: list = []
    real = solver_mod.check

    def counting(ctx, positions, paths=None, **kw):
        if kw.get("possible") is False:
            seen.append(tuple(sorted((m, tuple(map(tuple, p))) for m, p in paths.items())))
        return real(ctx, positions, paths, **kw)
    monkeypatch.setattr(solver_mod, "check", counting)
    plan = solver_mod.solve_move(state, geo, spec)
    assert not plan.violations
    assert seen and len(seen) == len(set(seen))


def test_ring_offsets_are_built_once():
    b = parse_base("32mm")
    first = ring_offsets(b, 0.0, b, 0.0, 0.5, 8)
    again = ring_offsets(b, 0.0, b, 0.0, 0.5, 8)
    assert first is again and not first.flags.writeable
    # radius 0.629921 * 2 + 0.5 = 1.759843: the first spot due east
    assert first[0] == pytest.approx((1.759843, 0.0), abs=1e-6)


def test_a_shortening_that_ends_on_a_friend_is_not_tried():
    # red A (10, 10) and B (12, 10); B's move ends at (10.5, 10).  A shortened to end
    # at (10.6, 10) stands 0.1" from B's end: gap 0.1 - 1.259843 = -1.159843", more
    # than twice the tolerance (0.04") into it: refused before scoring.  Ending at
    # (9.2, 10): 1.3 - 1.259843 = 0.040157" apart, clear: kept.  Ending at (9.44, 10):
    # 1.06 - 1.259843 = -0.199843" into B: refused - unless an overlap of A is already
    # allowed.  At (9.23, 10): -0.029843", an overlap the validator flags but less than
    # twice the tolerance: left to the validator (kept).
    from tabletop.geometry.paths import Arena
    from tabletop.geometry.reach import Reach
    state = _state([(10.0, 10.0), (12.0, 10.0)], [(10.0, 20.0)])
    ctx = MoveContext(state, snapshot(state), MoveSpec("pile_in", "r", ("b",), 3.0,
                                                       PILE_IN_RULE))
    s = solver_mod._Solver(ctx, Arena(state))
    s.moves = {"r/2": Reach("r/2", [(12.0, 10.0), (10.5, 10.0)], "b/1", False, False, 9.0, 1.5)}

    def alt(x):
        return Reach("r/1", [(10.0, 10.0), (x, 10.0)], "b/1", False, False, 9.0, abs(x - 10))
    assert s._lands_on_friend("r/1", alt(10.6), set())
    assert not s._lands_on_friend("r/1", alt(9.2), set())
    assert s._lands_on_friend("r/1", alt(9.44), set())
    assert not s._lands_on_friend("r/1", alt(9.44), {("overlap", "r/1")})
    assert not s._lands_on_friend("r/1", alt(9.23), set())
    # dropped (None): A stays at its start (10, 10), 0.5" from where B ends: gap 0.5 -
    # 1.259843 = -0.759843", and B moved, so the validator reports the overlap: refused
    # before scoring.  With B's move dropped too, neither moved: nothing is reported.
    assert s._lands_on_friend("r/1", None, set())
    assert not s._lands_on_friend("r/1", None, {("overlap", "r/1"), ("overlap", "r/2")})
    s.moves = {}
    assert not s._lands_on_friend("r/1", None, set())


def test_repair_spots_on_a_friend_are_left_out():
    # the same A and B, B ending at (10.5, 10): of the spots (10.6, 10) (0.1" from B's
    # centre: -1.159843" into it), (9.44, 10) (-0.199843"), (9.23, 10) (-0.029843",
    # under twice the tolerance) and (9.2, 10) (0.040157" clear), the first two land on
    # B; none when an overlap of A is allowed already
    from tabletop.geometry.paths import Arena
    from tabletop.geometry.reach import Reach
    state = _state([(10.0, 10.0), (12.0, 10.0)], [(10.0, 20.0)])
    ctx = MoveContext(state, snapshot(state), MoveSpec("pile_in", "r", ("b",), 3.0,
                                                       PILE_IN_RULE))
    s = solver_mod._Solver(ctx, Arena(state))
    s.moves = {"r/2": Reach("r/2", [(12.0, 10.0), (10.5, 10.0)], "b/1", False, False, 9.0, 1.5)}
    pts = np.array([(10.6, 10.0), (9.44, 10.0), (9.23, 10.0), (9.2, 10.0)])
    assert s._on_friends("r/1", pts, set()).tolist() == [True, True, False, False]
    assert s._on_friends("r/1", pts, {("overlap", "r/1")}).tolist() == [False] * 4
