"""Cases players report, overrun fights and each consolidation mode (fight-phase.txt 12.04-12.08).

32mm bases (radius 0.63"; touching centres 1.26" apart); engagement range 2"
(the "11th" preset); red is the player whose turn it is.  Every fight runs
the whole phase through ``fight`` with the real solver and FixedDice; every
move the solver makes is checked by the validator.
"""

from __future__ import annotations

import pytest
from fightkit import state_from, unit

from tabletop.rules.dice import FixedDice
from tabletop.rules.fight_phase import FightOptions, fight
from tabletop.rules.fight_phase.casualties import ATTACKS_RULE, OVERRUN_ATTACKS_RULE


def selected(res):
    return [(e["unit"], e["fight"]) for e in res.log.of_type("selected_to_fight")]


def assert_validator_agrees(res):
    """Every move the solver made passes the validator (no clause broken)."""
    for outcome in res.extra["moves"]:
        if outcome.plan is not None and not outcome.plan.violations:
            assert outcome.validator == [], (outcome.unit, outcome.validator)


def consolidations(res):
    return {e["unit"]: (e["mode"], e["targets"]) for e in res.log.of_type("consolidate")}


# ---------------------------------------------------------------- wiping out a target
OBJECTIVE = """
[[objectives]]
id = "A"
at = [10, 13.5]
"""


def test_after_wiping_out_its_target_a_unit_consolidates_onto_an_objective():
    # R (charged) touches B at (11.26, 10).  R kills B: hit 6, wound 6 (S4 v T4 needs 4+),
    # save 1 fails, D1 of W1.  Then R is unengaged, no enemy unit is within 3" (far is
    # 30 - 10 - 1.26 = 18.7" away), and objective A is 13.5 - 10 - 0.63 - 0.79 = 2.08" from R's
    # edge: objective consolidation toward A (12.08).
    text = unit("R", "red", [(10, 10)], charged=True) + unit("B", "blue", [(11.26, 10)], A=0) \
        + unit("far", "blue", [(29, 19)], A=0)
    res = fight(state_from(text, extra=OBJECTIVE), FixedDice([6, 6, 1]))
    assert [e["unit"] for e in res.log.of_type("destroyed")] == ["B"]
    assert consolidations(res)["R"] == ("objective", ["A"])
    assert_validator_agrees(res)


def test_with_an_enemy_unit_within_3_inches_the_objective_mode_is_not_open():
    # As above, but C stands 2.5" from R's edge (centre 10 - 1.26 - 2.5 = 6.24 away along x):
    # not engaged (2.5 > 2), so C cannot pile in; after B dies, C is within 3": R must make an
    # engaging consolidation toward C, not an objective one (12.08).
    text = unit("R", "red", [(10, 10)], charged=True) + unit("B", "blue", [(11.26, 10)], A=0) \
        + unit("C", "blue", [(6.24, 10)], A=0, W=5)
    res = fight(state_from(text, extra=OBJECTIVE), FixedDice([6, 6, 1]))
    assert consolidations(res)["R"] == ("engaging", ["C"])
    assert_validator_agrees(res)


def test_an_engaging_consolidation_makes_the_new_foe_eligible_and_it_must_be_selected():
    # Same layout: R's engaging consolidation ends engaged with C, which has not been selected
    # to fight this phase; blue must select it at once: it becomes eligible and fights (12.08
    # AFTER MOVING).  C was unengaged at the start of the Fight step and is engaged now, so
    # both fight types are open (12.05, 12.06); blue scripts an overrun, which adds a pile-in.
    # C's attack: hit 6, wound 6, save (R Sv 6) 6 saves.
    text = unit("R", "red", [(10, 10)], charged=True) + unit("B", "blue", [(11.26, 10)], A=0) \
        + unit("C", "blue", [(6.24, 10)], A=1, W=5)
    extra = OBJECTIVE + '\n[[decisions]]\nplayer = "blue"\nchoice = "fight_type"\nvalue = "overrun"\n'
    res = fight(state_from(text, extra=extra), FixedDice([6, 6, 1, 6, 6, 6]))
    assert [e["unit"] for e in res.log.of_type("eligible_to_fight")] == ["C"]
    assert selected(res) == [("R", "normal"), ("C", "overrun")]
    last = res.log.of_type("selected_to_fight")[-1]
    assert (last["player"], last["step"]) == ("blue", "consolidation")
    assert res.log.of_type("decision_overridden") == []
    overrun_moves = [e for e in res.log.events if e.type in ("pile_in", "no_move")
                     and e.rule == "fight-phase.txt 12.06"]
    assert [e["unit"] for e in overrun_moves] == ["C"]
    assert_validator_agrees(res)


def test_the_attacks_of_an_overrun_fight_cite_12_06():
    # The layout above: R makes a normal fight (its hit roll and attacks cite 12.05), C an
    # overrun fight (12.06: "then fights as described in Making Attacks (04)").
    text = unit("R", "red", [(10, 10)], charged=True) + unit("B", "blue", [(11.26, 10)], A=0) \
        + unit("C", "blue", [(6.24, 10)], A=1, W=5)
    extra = OBJECTIVE + '\n[[decisions]]\nplayer = "blue"\nchoice = "fight_type"\nvalue = "overrun"\n'
    res = fight(state_from(text, extra=extra), FixedDice([6, 6, 1, 6, 6, 6]))
    assert selected(res) == [("R", "normal"), ("C", "overrun")]
    hits = {e["purpose"].split()[2]: e.rule for e in res.log.of_type("roll")
            if e["purpose"].startswith("hit roll")}
    assert hits == {"R": ATTACKS_RULE, "C": OVERRUN_ATTACKS_RULE}
    assert OVERRUN_ATTACKS_RULE.startswith("fight-phase.txt 12.06")
    resolved = {e["unit"]: e.rule for e in res.log.of_type("attacks_resolved")}
    assert resolved == {"R": ATTACKS_RULE, "C": OVERRUN_ATTACKS_RULE}


# ---------------------------------------------------------------- eligibility after casualties
# B touches both R1 (charged, at 8.74) and R2 (did not charge, at 11.26).  D stands 4" beyond
# R2's edge (16.52 - 11.26 - 1.26 = 4.0"): not engaged, within 5".
LOSE = unit("R1", "red", [(8.74, 10)], charged=True) + unit("R2", "red", [(11.26, 10)]) \
    + unit("B", "blue", [(10, 10)], A=0) + unit("D", "blue", [(16.52, 10)], A=0, W=5)


def test_a_unit_that_did_not_charge_loses_eligibility_when_its_only_enemy_dies():
    # R1 fights first (charged) and kills B: hit 6, wound 6, save 1.  R2 did not charge and
    # its only enemy models within engagement range are gone before it is selected: with
    # engaged_at_step_start_keeps_eligible = false (the "10th" preset's reading, set here on
    # the "11th" preset) it is not eligible to fight, so it never makes an overrun pile-in
    # toward D.
    off = "[rules]\nengaged_at_step_start_keeps_eligible = false\n"
    res = fight(state_from(LOSE, rules=off), FixedDice([6, 6, 1]))
    assert selected(res) == [("R1", "normal")]
    assert [e["unit"] for e in res.log.of_type("pile_in") if e.rule.endswith("12.06")] == []
    assert_validator_agrees(res)


def test_literal_reading_keeps_it_eligible_and_it_overruns():
    # Read literally ("it was engaged at the start of this step"; the "11th" preset's
    # default, given here explicitly as FightOptions), R2 stays eligible; it is
    # unengaged, so only the overrun fight is open: an extra pile-in toward D (within 5"),
    # which ends engaged (3" of 4" leaves 1" < 2"), then it fights D: hit 6, wound 6, save 6.
    res = fight(state_from(LOSE), FixedDice([6, 6, 1, 6, 6, 6]),
                options=FightOptions(engaged_at_step_start_keeps_eligible=True))
    assert selected(res)[:2] == [("R1", "normal"), ("R2", "overrun")]
    overrun = [e for e in res.log.of_type("pile_in") if e.rule.endswith("12.06")]
    assert [e["unit"] for e in overrun] == ["R2"]
    assert all(d <= 3.0 + 0.02 for d in overrun[0]["distances"].values())
    assert_validator_agrees(res)


def test_overrun_fight_after_the_only_enemy_is_destroyed():
    # R1 and R2 both charged and both touch B.  R1 (first in file order) kills B.  R2 still
    # made a charge move, so it is eligible; unengaged, its only fight type is overrun (12.06):
    # it piles in toward D (4" away, within 5") and fights it: hit 6, wound 6, save 6 saves.
    text = LOSE.replace('id = "R2"\nplayer = "red"\nbase = "32mm"\ncharged = false',
                        'id = "R2"\nplayer = "red"\nbase = "32mm"\ncharged = true')
    res = fight(state_from(text), FixedDice([6, 6, 1, 6, 6, 6]))
    assert selected(res)[:2] == [("R1", "normal"), ("R2", "overrun")]
    overrun = [e for e in res.log.of_type("pile_in") if e.rule.endswith("12.06")]
    assert [e["unit"] for e in overrun] == ["R2"]
    attacks = [e for e in res.log.of_type("attacks_resolved") if e["unit"] == "R2"]
    assert attacks and attacks[0]["target"] == "D"
    assert_validator_agrees(res)


# ---------------------------------------------------------------- consolidation modes
def test_ongoing_consolidation_when_still_engaged():
    # Neither unit has a weapon: both stay engaged, both consolidate in the ongoing mode,
    # red first (12.07).
    text = unit("R", "red", [(10, 10), (10, 11.5)], charged=True, A=0) \
        + unit("B", "blue", [(11.26, 10), (12.6, 11.2)], A=0)
    res = fight(state_from(text), FixedDice([]))
    modes = [(e["unit"], e["mode"]) for e in res.log.of_type("consolidate")]
    assert modes == [("R", "ongoing"), ("B", "ongoing")]
    assert_validator_agrees(res)


def test_scenario_overrun_and_new_foes():
    # tests/scenarios/fight-overrun-and-new-foes.toml (its comment works the distances).
    # Dice: R1 kills B (6, 6, save 1); R2 overruns 3" toward D (4" away: ends 1" off, engaged)
    # and hits, wounds, D saves on a 6; D fights with no weapon; consolidation: R1 engages C
    # (2.5" away), so C must be selected and fights: 6, 6, R1's save 1: R1 is destroyed.
    from pathlib import Path

    from tabletop.board import mapfile
    path = Path(__file__).resolve().parent / "scenarios" / "fight-overrun-and-new-foes.toml"
    res = fight(mapfile.load(str(path)), FixedDice([6, 6, 1, 6, 6, 6, 6, 6, 1]))
    assert selected(res) == [("R1", "normal"), ("R2", "overrun"), ("D", "normal"), ("C", "normal")]
    assert [e["unit"] for e in res.log.of_type("destroyed")] == ["B", "R1"]
    overrun = [e for e in res.log.of_type("pile_in") if e.rule.endswith("12.06")][0]
    assert overrun["distances"]["R2/1"] == pytest.approx(3.0, abs=0.02)
    assert consolidations(res)["R1"] == ("engaging", ["C"])
    # R2's ongoing consolidation: it started 1" from D (14.26 + 1.26 + 1.0 = 16.52) and ends
    # closer, still engaged (12.08 ongoing: closer, and engaged if possible)
    from tabletop.geometry import snapshot
    geo = snapshot(res.state)
    assert geo.distance("R2/1", "D/1") < 1.0 - 0.02 and geo.model_engaged_with_unit("R2/1", "D")
    assert_validator_agrees(res)


def test_pile_in_targets_default_to_every_unit_within_5_and_a_script_picks_one():
    # R charged, unengaged: B1 is 16 - 10 - 1.26 = 4.74" away, B2 13.5 - 10 - 1.26 = 2.24" up.
    # Both are within 5" (12.03 BEFORE MOVING): by default both are selected; scripted
    # pile_in_targets = ["B1"] (a sorted list) selects B1 alone.
    from tabletop.rules.fight_phase import pile_in
    text = unit("R", "red", [(10, 10)], charged=True) + unit("B1", "blue", [(16, 10)], A=0) \
        + unit("B2", "blue", [(10, 13.5)], A=0)
    assert pile_in(state_from(text), "R").targets == ("B1", "B2")
    script = '\n[[decisions]]\nplayer = "red"\nchoice = "pile_in_targets"\nvalue = ["B1"]\n'
    outcome = pile_in(state_from(text, extra=script), "R")
    assert outcome.targets == ("B1",)
    assert outcome.legal and outcome.validator == []
