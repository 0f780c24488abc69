"""An engagement's own work walked once and shared between the tables that reach it
(segment-share: ``engine.factored.exact_split``, ``fight_phase.odds_split``).

Positions (32mm bases: 1.26" across, engagement range 1", fight-phase.txt 12.04), a 30" x
20" table, red the player whose turn it is, no charges (so no Fights First):
engagement E1 - red ``r1`` at (5, 5) and blue ``b1`` at (6.5, 5): centres 1.5" apart, a
gap of 0.24" <= 1", engaged; engagement E2 - red ``r2`` at (20, 15) and blue ``b2`` at
(21.5, 15): engaged the same way.  E1 and E2 are over 17" apart (far beyond the pile-in
distance plus engagement range, 4"): two parts.  Every unit is one model with 1 wound,
T4, Sv 6+, one attack WS3+ S4 AP0 D1.

One attack kills with 2/3 (hit on 3+) * 1/2 (S4 v T4 wounds on 4+) * 5/6 (a 6+ save fails
on 1-5) = 10/36 = 5/18; it fails with 13/18.

The 12.04 alternation (Resolve Remaining Combats, red first; the default policy selects a
player's first eligible unit in file order r1, b1, r2, b2): red selects r1, which strikes
b1.  Blue then selects b1 if it lives (13/18), else b2 (5/18) - so who strikes first in E2
depends on E1.  When b1 lives it strikes r1, and red then selects r2 with r1 alive
(13/18) or destroyed (5/18): two different tables, one and the same E2 (untouched, r2
about to fight).  The walk before this change walked r2's fight once per table; now once.
"""

from __future__ import annotations

import importlib
from dataclasses import replace
from fractions import Fraction

from fightkit import state_from, unit

from tabletop.rules.fight_phase import odds_split

ODDS = importlib.import_module("tabletop.rules.fight_phase.odds")   # the module, not the function

K = Fraction(5, 18)      # one attack kills
M = 1 - K                # 13/18: it does not


def _table():
    return state_from(unit("r1", "red", [(5, 5)]) + unit("b1", "blue", [(6.5, 5)])
                      + unit("r2", "red", [(20, 15)]) + unit("b2", "blue", [(21.5, 15)]))


def test_shared_segments_give_the_plain_walks_fractions():
    got = ODDS.odds(_table())
    assert got["method"] == "exact"
    p = {r["unit"]: Fraction(r["p_destroyed_exact"]) for r in got["units"]}
    # b1: r1 strikes it first = 5/18
    assert p["b1"] == K
    # r1: b1 lives (13/18) and strikes back (5/18) = 65/324
    assert p["r1"] == M * K == Fraction(65, 324)
    # b2: b1 lives (13/18) -> r2 strikes first (5/18); b1 dies (5/18) -> b2 strikes first,
    # r2 lives (13/18) and strikes (5/18): 13/18*5/18 + 5/18*13/18*5/18 = 1495/5832
    assert p["b2"] == M * K + K * M * K == Fraction(1495, 5832)
    # r2: b1 lives (13/18) -> r2 first, b2 lives (13/18), strikes (5/18); b1 dies (5/18)
    # -> b2 first (5/18): 13/18*13/18*5/18 + 5/18*5/18 = 845/5832 + 450/5832 = 1295/5832
    assert p["r2"] == M * M * K + K * K == Fraction(1295, 5832)


def test_r2s_fight_is_walked_once_for_both_tables(monkeypatch):
    """r2's fight from the untouched E2 is reached on two tables (r1 alive, r1 destroyed):
    its own work is walked once (one splice of E2 with no unit selected yet, r2 fighting)
    and transplanted onto the other; the plain walk walked it twice."""
    walks = []
    real = odds_split.fight_split

    def counting(*a, **k):
        split = real(*a, **k)

        def splice(st, i, data, inner=split.splice):
            units, sets, _ = data
            job = st.memo.fighting
            # r2 about to fight from an E2 where no unit is selected yet
            if job is not None and job.unit == "r2" and not any(f[0] for f in sets):
                walks.append(tuple(u is not None for u in units))
            return inner(st, i, data)
        return replace(split, splice=splice)
    monkeypatch.setattr(ODDS, "fight_split", counting)
    ODDS.odds(_table())
    assert walks == [(True, True)]       # once, E2 whole (r2 and b2 there)
