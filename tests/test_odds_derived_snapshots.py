"""The odds path derives a table's geometry snapshot from the table before it (``Geometry.moved``)
where only a move or a return happened, instead of building it afresh - and gets the same answers.

32mm round bases: radius 0.62992" (``challengekit.R32``); two centres 1.26" apart touch.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from challengekit import battlefield, events, model, unit
from test_rules_challenge_subphase import run_prolonged

from tabletop.geometry import snapshot
from tabletop.rules.challenges import gambit_rows
from tabletop.rules.challenges.gambit import return_models
from tabletop.rules.fight_phase import targets
from tabletop.rules.fight_phase.context import geometry
from tabletop.rules.fight_phase.moving import MoveOutcome


@pytest.fixture
def fresh_builds(monkeypatch):
    """Counts snapshots built afresh (``Geometry.__init__``) from when it is read."""
    from tabletop.geometry.snapshot import Geometry
    count = {"n": 0}
    init = Geometry.__init__

    def counted(self, state):
        count["n"] += 1
        init(self, state)

    monkeypatch.setattr(Geometry, "__init__", counted)
    return count


@dataclass
class _Plan:
    """A solved move as ``MoveOutcome`` reads it: where the moved models end."""

    positions: dict
    violations: tuple = ()

    def state_after(self, state):
        return state.with_positions(self.positions)


def test_a_searched_move_is_judged_on_a_derived_snapshot(fresh_builds):
    # red a/1 (10, 10), a/2 (11.26, 10); blue b/1 (10, 14).  The move puts a/1 at (10, 12.74):
    # 14 - 12.74 = 1.26 between centres, base contact -> engaged.  a/2 stays: centres
    # sqrt(1.26^2 + 4^2) = 4.194" apart, gap 4.194 - 1.26 = 2.934" > 2" -> not engaged.  1 model.
    s = battlefield([unit("a", "red", [model(10.0, 10.0), model(11.26, 10.0)]),
                     unit("b", "blue", [model(10.0, 14.0)])], challenges=None)
    geometry(s)                                     # the phase's snapshot of the table before
    fresh_builds["n"] = 0
    out = MoveOutcome("a", "pile_in", "fight-phase.txt 12.03", ("b",),
                      plan=_Plan({"a/1": (10.0, 12.74)}))
    assert targets._engaged_models(s, out) == 1
    assert fresh_builds["n"] == 0                   # derived from the one before, not built
    after = snapshot(out.state_after(s))            # a fresh build agrees
    assert [m for m in after.unit_models("a") if after.model_engaged(m)] == ["a/1"]


def test_the_returned_challengers_table_is_a_derived_snapshot(fresh_builds):
    # As test_rules_challenge_subphase's Resolution: a/1 goes back where it stood, (10, 10);
    # b/2 at (11.26, 11.26) is sqrt(2) * 1.26 = 1.782" away, gap 1.782 - 1.26 = 0.522" -> engaged.
    gambit_rows._CHOICES.clear()                    # no plan kept from another test
    _, after, sub, log = run_prolonged()
    geometry(after)                                 # the phase's snapshot of the table without it
    fresh_builds["n"] = 0
    back = return_models(after, sub, log)
    assert fresh_builds["n"] == 0                   # derived from the table without a/1
    (ev,) = events(log, "returned")
    assert ev["model"] == "a/1" and ev["at"] == [10.0, 10.0] and ev["engaged"] is True
    assert snapshot(back).model_engaged("a/1")      # a fresh build agrees
