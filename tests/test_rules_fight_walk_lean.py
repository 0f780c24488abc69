"""The odds walk's per-state work done once (walk-lean): eligibility worked out once per
geometry snapshot (and what else it reads), the split walk's keys once per state.

Positions (32mm bases: 1.26" across, engagement range 1", fight-phase.txt 12.04):
red ``r`` at (10, 10), blue ``b`` at (11.5, 10) - centres 1.5" apart, a gap of
1.5 - 1.26 = 0.24" <= 1": engaged; blue ``far`` at (25, 10) - a gap of 15 - 1.26 =
13.74" from ``r``: not engaged, and it did not charge.
"""

from __future__ import annotations

from dataclasses import replace

from fightkit import state_from, unit

from tabletop.board.frozen import evolve
from tabletop.rules.fight_phase import eligibility
from tabletop.rules.fight_phase.context import FightMemo, FightOptions, PhaseView, geometry
from tabletop.rules.fight_phase.odds_split import fight_split
from tabletop.rules.fight_phase.sequence import phase


def _table(far_charged: bool = False):
    return state_from(unit("r", "red", [(10, 10)], W=2) + unit("b", "blue", [(11.5, 10)], W=2)
                      + unit("far", "blue", [(25, 10)], charged=far_charged))


def _wounded(bf, model_id: str):
    """``bf`` with ``model_id`` having lost 1 wound (no model moved)."""
    m = bf.model(model_id)
    return bf.with_models([replace(m, wounds_lost=1)])


def test_eligibility_is_worked_out_once_per_snapshot(monkeypatch):
    bf = _table()
    memo = FightMemo(FightOptions())
    # 12.04: r and b are engaged (gap 0.24" <= 1"), far is neither engaged nor charged
    assert eligibility.eligible_units(PhaseView(bf, memo)) == ["r", "b"]
    hurt = _wounded(bf, "b/1")
    assert geometry(hurt) is geometry(bf)          # same models in the same places: one snapshot
    calls = []
    real = eligibility._eligible_units
    monkeypatch.setattr(eligibility, "_eligible_units",
                        lambda *a: calls.append(a) or real(*a))
    # the wounded table reads the same snapshot and the same units: the answer is kept
    assert eligibility.eligible_units(PhaseView(hurt, memo)) == ["r", "b"]
    assert calls == []
    # a unit selected is history the answer reads: worked out again, r no longer eligible
    chosen = evolve(memo, selected=("r",))
    assert eligibility.eligible_units(PhaseView(hurt, chosen)) == ["b"]
    assert len(calls) == 1


def test_eligibility_kept_per_snapshot_still_reads_each_units_charge():
    plain, charged = _table(), _table(far_charged=True)
    assert geometry(plain) is geometry(charged)   # same placement: the snapshot is shared
    memo = FightMemo(FightOptions())
    assert eligibility.eligible_units(PhaseView(plain, memo)) == ["r", "b"]
    # far made a charge move this turn: eligible though unengaged (12.04), file order r, b, far
    assert eligibility.eligible_units(PhaseView(charged, memo)) == ["r", "b", "far"]
    # blue's units only, and Fights First only (a charge makes far fight first, 12.04)
    assert eligibility.eligible_units(PhaseView(charged, memo), "blue") == ["b", "far"]
    assert eligibility.eligible_units(PhaseView(charged, memo), fights_first=True) == ["far"]


def test_split_keys_are_worked_out_once_per_state():
    bf = _table()
    _, st = phase(bf)
    split = fight_split((("r", "b"), ("far",)), ("r", "b", "far"), {"r": 1, "b": 1, "far": 1})
    first = split.inner(st, 0)
    assert split.inner(st, 0) is first               # kept with the state
    assert split.moving(st) is split.moving(st)
    assert split.shared(st) is split.shared(st)
    assert split.projection(st, 1) is split.projection(st, 1)
    fresh = evolve(st)                               # a copy does not carry what was kept
    assert split.inner(fresh, 0) is not first and split.inner(fresh, 0) == first
    # what the key holds: r and b as they stand (one model each, no wounds lost), in no set
    # yet, no tallies
    units_key, sets, tallies = first[0]
    assert [k[0] for k in units_key] == ["r", "b"]
    assert [m[4] for k in units_key for m in k[2]] == [0, 0]
    assert sets == ((False, False, False, False), (False, False, False, False))
    assert tallies == ((None, None, None), (None, None, None))
    # b wounded: its key changes (wounds lost 1), r's does not
    hurt = evolve(st, battlefield=_wounded(bf, "b/1"))
    assert [m[4] for k in split.inner(hurt, 0)[0][0] for m in k[2]] == [0, 1]
