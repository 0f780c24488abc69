"""The odds walk's shortcuts give what the plain path gives (attacks.py DEAL_TOGETHER,
casualties.deal_wounds, removal.removal_order's ``without``, moving.solve_key), worked by hand.

The line: blue B, three 32mm models (1.26" across) on y = 10 at x = 6, 9 and 12 (gaps
3 - 1.26 = 1.74", inside the 2" coherency range of the "11th" preset, each model needing
one other), red R one 32mm model at x = 13.26, in base contact with B/3.  Nearest enemy
(edge to edge): B/1 13.26 - 6 - 1.26 = 6.0", B/2 3.0", B/3 0".  Removing B/2 leaves B/1
and B/3 6 - 1.26 = 4.74" apart (out of coherency); removing B/1 or B/3 keeps it.
"""

from __future__ import annotations

from fractions import Fraction

from fightkit import state_from, unit

from tabletop.geometry import snapshot
from tabletop.geometry.movespec import MoveContext
from tabletop.geometry.removal import removal_order
from tabletop.rules.fight_phase import attacks, casualties, moving
from tabletop.rules.fight_phase import odds as fight_odds
from tabletop.rules.fight_phase.casualties import allocate, deal_wounds, lose_wounds
from tabletop.rules.fight_phase.context import geometry

LINE = [(6, 10), (9, 10), (12, 10)]


def line(W=1):
    return state_from(unit("R", "red", [(13.26, 10)], charged=True, A=2, Sv=4)
                      + unit("B", "blue", LINE, A=0, W=W, Sv=4))


def one_at_a_time(state, n, damage):
    """The plain path: ``n`` rounds of allocate then lose_wounds."""
    events, went, dead = [], [], []
    for _ in range(n):
        m = allocate(state, geometry(state), "B")
        if m is None:
            break
        state, evs, removed = lose_wounds(state, m, damage, by="R")
        events += evs
        went.append(m)
        if removed is not None:
            dead.append(removed)
    return state, events, went, dead


def wounds(state):
    return [(m.id, m.wounds_lost) for m in state.models() if m.unit_id == "B"]


def test_removal_order_without_a_model_is_the_order_of_the_table_without_it():
    s = line()
    geo = snapshot(s)
    # keeps coherency first (B/1, B/3; B/2 would split them), farthest first: B/1 (6.0")
    # then B/3 (0"); then B/2
    assert removal_order(geo, "B") == ["B/1", "B/3", "B/2"]
    # without B/1 either removal leaves one model (coherent): B/2 (3.0") before B/3 (0")
    assert removal_order(geo, "B", frozenset({"B/1"})) == ["B/2", "B/3"]
    assert removal_order(snapshot(s.without_models(["B/1"])), "B") == ["B/2", "B/3"]


def test_dealt_together_as_one_at_a_time_one_wound_models():
    s = line()
    after, events, went, dead = deal_wounds(s, geometry(s), "B", 2, 1, by="R")
    # B/1 first, then (the order of B/2, B/3 alone) B/2: B/3 is left
    assert went == ["B/1", "B/2"]
    assert wounds(after) == [("B/3", 0)]
    plain, p_events, p_went, p_dead = one_at_a_time(s, 2, 1)
    assert (wounds(after), events, went, dead) == (wounds(plain), p_events, p_went, p_dead)
    assert after == plain
    assert geometry(after).unit_models("B") == ["B/3"]      # its snapshot came with it


def test_dealt_together_stops_when_the_unit_is_destroyed():
    s = line()
    after, events, went, _ = deal_wounds(s, geometry(s), "B", 5, 1, by="R")
    assert went == ["B/1", "B/2", "B/3"] and not after.has_unit("B")   # 3 of 5 dealt
    assert [e.type for e in events][-2:] == ["removed", "destroyed"]
    assert events == one_at_a_time(s, 5, 1)[1]


def test_dealt_together_wounded_model_first_two_wound_models():
    s = line(W=2)
    after, events, went, dead = deal_wounds(s, geometry(s), "B", 3, 1, by="R")
    # 1st to B/1 (1 lost), 2nd to the wounded B/1 (removed), 3rd: B/2 first of B/2, B/3
    assert went == ["B/1", "B/1", "B/2"]
    assert wounds(after) == [("B/2", 1), ("B/3", 0)]
    assert [(m.id, m.wounds_lost) for m in dead] == [("B/1", 1)]   # as it stood before
    plain = one_at_a_time(s, 3, 1)
    assert (after, events, went, dead) == plain


def _rows(r):
    return {row["unit"]: row for row in r["units"]}


def test_odds_dealt_together_equal_the_plain_path(monkeypatch):
    """R: 2 attacks, each a failed save with 4/6 (hit 3+) * 3/6 (S4 v T4: 4+) * 3/6 (Sv 4+
    fails on 1-3) = 1/6, so failed saves ~ Bin(2, 1/6): 0 with 25/36, 1 with 10/36, 2 with
    1/36; they remove B/1 then B/2 (B never destroyed: 3 models, B makes no attacks)."""
    s = line()
    calls = []
    real = casualties.deal_wounds

    def spy(*a, **k):
        calls.append(a[3])
        return real(*a, **k)
    monkeypatch.setattr(attacks, "deal_wounds", spy)
    fast = fight_odds(s)
    assert calls and max(calls) == 2           # two failed saves dealt in one step
    r, b = _rows(fast)["R"], _rows(fast)["B"]
    assert r["models_removed"] == {"0": 25 / 36, "1": 10 / 36, "2": 1 / 36}
    assert r["wounds_caused"] == r["models_removed"]                      # W1, D1
    assert Fraction(b["expected_models_lost_exact"]) == Fraction(1, 3)    # 2 * 1/6
    assert b["p_destroyed"] == 0

    monkeypatch.setattr(attacks, "_no_feel_no_pain", lambda state, unit_id: False)
    calls.clear()
    plain = fight_odds(s)
    assert not calls                           # one failed save at a time
    for key in ("units", "engagements"):
        assert plain[key] == fast[key]


def _pile_in_key(state):
    return moving.solve_key(state, moving.gmoves.MoveSpec("pile_in", "R", ("B",), 3.0,
                                                          moving.R_PILE_IN))


def test_solve_key_holds_the_units_within_reach_and_leaves_far_ones_out():
    """Reach (default preset): 3" move + 5" pile-in target range + 2" (engagement and
    coherency range) + 4" NEIGHBOURHOOD + 1" margin = 15", plus the far unit's 0.63"
    radius.  F (blue) 25" from R's centre is left out; N (blue) 12" from it is in."""
    base = unit("R", "red", [(5, 10)], A=1) + unit("B", "blue", [(7.5, 10)], A=1)
    far = state_from(base + unit("F", "blue", [(30, 10)], A=1))
    farther = state_from(base + unit("F", "blue", [(29, 12)], A=1))
    near = state_from(base + unit("N", "blue", [(17, 10)], A=1))
    near_moved = state_from(base + unit("N", "blue", [(17, 11)], A=1))
    assert _pile_in_key(far) == _pile_in_key(farther)            # F moved: same key
    assert _pile_in_key(near) != _pile_in_key(near_moved)        # N moved: not
    for s in (far, near):
        spec = moving.gmoves.MoveSpec("pile_in", "R", ("B",), 3.0, moving.R_PILE_IN)
        ctx = MoveContext(s, geometry(s), spec)
        kept = {e[0] for e in _pile_in_key(s)[-1]}
        assert {m.id for m in ctx.local.models()} <= kept        # all the solver reads


def test_solved_move_reused_when_only_far_models_differ(monkeypatch):
    base = unit("R", "red", [(5, 10), (5, 11.3)], A=1) + unit("B", "blue", [(7, 10)], A=1)
    a = state_from(base + unit("F", "blue", [(30, 10)], A=1))
    b = state_from(base + unit("F", "blue", [(29, 12)], A=1))
    monkeypatch.setattr(moving, "_SOLVED", {})
    solves = []
    real = moving.gmoves.solve_move

    def spy(*args):
        solves.append(args[2])
        return real(*args)
    monkeypatch.setattr(moving.gmoves, "solve_move", spy)
    first = moving.setup_pile_in(a, geometry(a), "R")      # engaged: solved at once
    second = moving.setup_pile_in(b, geometry(b), "R")
    assert len(solves) == 1                     # the second table's move came from the cache
    monkeypatch.setattr(moving, "_SOLVED", {})
    fresh = moving.setup_pile_in(b, geometry(b), "R")
    assert len(solves) == 2
    for got in (first, second):
        assert got.plan.positions == fresh.plan.positions and got.legal == fresh.legal
    # R engaged with B (gap 7 - 5 - 1.26 = 0.74" <= 2"): R/1 piles in to base contact
    # (0.74" < the 3" move)
    assert geometry(fresh.state_after(b)).in_base_contact("R/1", "B/1")
