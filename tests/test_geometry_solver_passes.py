"""How many first passes the pile-in solver makes (fight-phase.txt 12.03;
``solver.first_pass_complete``): a second first pass, aiming at other spots on
the enemy, is not made when the first already engaged, in base contact, every
model that could be, and left only what the second cannot mend (the unit out
of coherency, 03.03, which the coherency step repairs).

32mm bases are 1.25984" across, the tolerance 0.02", the simulated margin
0.01" (half the tolerance); 11th preset: engagement and coherency range 2",
spread 9".
"""

from __future__ import annotations

import pytest
from moves_support import pile_in_spec

from tabletop.board.mapfile import from_dict
from tabletop.geometry import snapshot
from tabletop.geometry import solver as solver_mod
from tabletop.geometry.moves import solve_move


def _count_first_passes(monkeypatch) -> list[bool]:
    calls: list[bool] = []
    real = solver_mod._Solver.first_pass

    def counted(self, use_slots):
        calls.append(use_slots)
        return (yield from real(self, use_slots))
    monkeypatch.setattr(solver_mod._Solver, "first_pass", counted)
    return calls


def _apart_state():
    # e/1 at (20, 20); r/1 in base contact due south of it (centre y 20 - 1.25984
    # = 18.74016: it stays, 12.03); r/2 12" east of e/1's centre (edge gap
    # 12 - 1.25984 = 10.74016")
    return from_dict({
        "map": {"name": "apart", "ruleset": "fight-phase", "width": 44, "depth": 44},
        "players": [{"id": "red", "active": True}, {"id": "blue"}],
        "units": [{"id": "r", "player": "red", "base": "32mm",
                   "models": [[20, 18.74016], [32, 20]]},
                  {"id": "e", "player": "blue", "base": "32mm", "models": [[20, 20]]}]})


def test_no_second_first_pass_when_only_coherency_is_left(monkeypatch):
    state = _apart_state()
    geo = snapshot(state)
    assert geo.distance("r/1", "e") == pytest.approx(0.0, abs=1e-5)
    # r/2 is out of reach: 10.74016 - 3 = 7.74" > 2" whatever it does
    assert geo.distance("r/2", "e") == pytest.approx(10.74016, abs=1e-5)
    calls = _count_first_passes(monkeypatch)
    plan = solve_move(state, geo, pile_in_spec(state, geo))
    assert calls == [True]                    # the slots pass only (the old code: two)
    assert "r/1" not in plan.positions          # in base contact: it does not move
    # r/2 straight west toward the spot due east of e/1 ((21.26984, 20), the leg
    # clear: r/1 stands sqrt(1.26984^2 + 1.25984^2) = 1.789" from its end, centre to
    # centre, over 1.25984"), cut at 3"
    assert plan.positions["r/2"] == pytest.approx((29.0, 20.0), abs=1e-4)
    # left 7.83" apart edge to edge (sqrt(9^2 + 1.25984^2) - 1.25984 = 7.8279) > 2":
    # both out of coherency, and no move of at most 3" can mend it (r/2 starts
    # sqrt(12^2 + 1.25984^2) - 1.25984 = 10.81" from r/1)
    after = snapshot(plan.state_after(state))
    assert after.distance("r/1", "r/2") == pytest.approx(7.8279, abs=1e-3)
    assert sorted(v.model for v in plan.violations) == ["r/1", "r/2"]
    assert all("coherency" in v.message for v in plan.violations)

