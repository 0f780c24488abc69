"""The fight odds' shortcuts (issue 9): a casualty's table keeps a geometry snapshot derived from
its parent's, answering as a fresh one; and the exact odds of the lessons are the same fractions
as before the shortcuts (read off ``fight MAP --odds --json`` of the code before them).

32 mm round base: radius 0.629921" (two radii 1.259843"); fight-phase engagement range 2".
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import pytest
from fightkit import state_from

from tabletop.board.mapfile import load
from tabletop.geometry import snapshot
from tabletop.rules.fight_phase import context
from tabletop.rules.fight_phase.casualties import lose_wounds
from tabletop.rules.fight_phase.odds import odds as fight_odds

MAPS = Path(__file__).resolve().parent.parent / "maps"
TWO_RADII = 32 / 25.4        # two 32 mm radii, inches

UNITS = """
[[units]]
id = "a"
player = "red"
base = "32mm"
profile = { T = 4, Sv = 3, W = 2 }
weapons = [{ name = "Blade", A = 2, WS = 3, S = 4, AP = -1, D = 1 }]
models = [[10.0, 10.0], [10.0, 16.0]]

[[units]]
id = "b"
player = "blue"
base = "32mm"
profile = { T = 4, Sv = 3, W = 2 }
weapons = [{ name = "Choppa", A = 2, WS = 3, S = 4, AP = -1, D = 1 }]
models = [[11.5, 10.0]]
"""


def test_snapshot_without_a_casualty_answers_as_a_fresh_one():
    state = state_from(UNITS)
    geo = snapshot(state)
    # a/1 (10, 10) to b/1 (11.5, 10): 1.5 - 1.259843 = 0.240157" <= 2": engaged
    assert geo.distance("a/1", "b/1") == pytest.approx(1.5 - TWO_RADII, abs=1e-6)
    assert geo.engaged_unit_pairs == [("a", "b")]
    after = state.without_models(["a/1"])
    derived = geo.without(after)
    # a/2 (10, 16) to b/1 (11.5, 10): hypot(1.5, 6) - 1.259843 = 6.184658 - 1.259843 = 4.924815"
    # > 2": once a/1 is gone nobody is engaged
    assert derived.distance("a/2", "b/1") == pytest.approx(math.hypot(1.5, 6) - TWO_RADII, abs=1e-6)
    assert derived.ids == ["a/2", "b/1"]
    assert derived.engaged_unit_pairs == []
    assert not derived.unit_engaged("a") and not derived.unit_engaged("b")
    assert derived.unit_models("a") == ["a/2"]
    fresh = snapshot(after)
    assert derived.ids == fresh.ids and derived._gap == fresh._gap
    assert derived.distance("a/2", "b/1") == fresh.distance("a/2", "b/1")
    with pytest.raises(ValueError):          # a model moved: not a table that only lost models
        geo.without(after.with_positions({"a/2": (10.0, 15.0)}))


def test_a_casualty_table_is_not_snapshot_again(monkeypatch):
    state = state_from(UNITS)
    parent_geo = context.geometry(state)
    built = []
    monkeypatch.setattr(context, "snapshot", lambda s: built.append(s) or snapshot(s))
    # b/1 has W 2: 1 damage leaves it on the table (wounds lost 1), same places: same snapshot
    hurt, _, removed = lose_wounds(state, "b/1", 1, by="a")
    assert removed is None and hurt.model("b/1").wounds_lost == 1
    assert context.geometry(hurt) is parent_geo
    # a/1 has W 2: 2 damage removes it; the snapshot comes from the parent's, none is built
    gone, _, removed = lose_wounds(state, "a/1", 2, by="b")
    assert removed is not None and removed.id == "a/1"
    geo = context.geometry(gone)
    assert built == []
    assert geo.ids == ["a/2", "b/1"]
    assert geo.engaged_unit_pairs == []       # a/2 is 4.924815" from b/1 (above): > 2"


def test_without_models_keeps_the_other_units_as_they_were():
    state = state_from(UNITS)
    after = state.without_models(["a/1"])
    assert after.unit("b") is state.unit("b")
    assert [m.id for m in after.unit("a").models] == ["a/2"]
    assert not after.without_models(["b/1"]).has_unit("b")     # its only model: unit gone


# Exact odds of the code before the shortcuts (``fight MAP --odds --json``, its
# ``p_destroyed_exact`` / ``expected_models_lost_exact``): the same walk, so the same fractions.
PILE_IN = {
    "intercessors": ("0", "1054134820264879875451/5908625413101667397286"),
    "boyz": ("38698746643496960/150094635296999121", "27702655554842896/16677181699666569"),
}
GAMBIT = {
    "tac": ("21310911858835512663792459016924237638623436925/"
            "4727528542818675063685866547513555569709454828466075598848",
            "60034886372057747299585263005110177830965416645511090326248459013/"
            "48191859908983430805645921117862533105715787734292065178880049152"),
    "breachers": ("110349546235558063308896057048551719954859161125192043026245/"
                  "11765590798091657911534648710415657496512643489817398725312512",
                  "1738385270467831681703483754538636881265903393877/"
                  "514302467063742730787917823810863711035108360192"),
}


@pytest.mark.parametrize("name, expected", [("lessons/pile-in", PILE_IN),
                                            ("lessons/gambit-challenge", GAMBIT)])
def test_exact_odds_are_the_fractions_of_before(name, expected):
    got = fight_odds(load(str(MAPS / f"{name}.toml")))
    assert got["method"] == "exact"
    rows = {r["unit"]: r for r in got["units"]}
    assert set(rows) == set(expected)
    for unit, (dead, lost) in expected.items():
        assert Fraction(rows[unit]["p_destroyed_exact"]) == Fraction(dead)
        assert Fraction(rows[unit]["expected_models_lost_exact"]) == Fraction(lost)
