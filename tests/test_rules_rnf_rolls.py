"""Attack rolls and damage saves (rank-and-flank-combat.txt "Attack roll", "Damage save").

Every expected value is read off the tables in the text; fixed dice script
the faces in the order the rules roll them.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from tabletop.rules.dice import FixedDice
from tabletop.rules.events import EventLog
from tabletop.rules.rank_and_flank.rolls import (
    hit_spec,
    p_hit,
    p_unsaved,
    roll_saves,
    roll_to_hit,
    save_spec,
    save_target,
    strike,
)


def test_attack_roll_table_and_clamp():
    assert hit_spec(4, 3).target == 3          # Skill higher: 3+
    assert hit_spec(3, 3).target == 4          # equal: 4+
    assert hit_spec(2, 5).target == 4          # lower: 4+
    assert hit_spec(4, 3, modifier=+3).target == 2   # 3+ improved by 3 is never better than 2+
    assert hit_spec(3, 3, modifier=-4).target == 6   # 4+ worsened by 4 is never worse than 6+
    assert hit_spec(3, 3, modifier=+1).target == 3


@pytest.mark.parametrize("power,defense,save", [
    (6, 3, 6), (7, 3, 6),      # Power 3 or more higher: 6+
    (5, 3, 5), (4, 3, 5),      # 1-2 higher: 5+
    (3, 3, 4),                 # equal: 4+
    (3, 4, 3), (3, 5, 3),      # Defense 1-2 higher: 3+
    (3, 6, 2), (1, 6, 2),      # Defense 3 or more higher: 2+
])
def test_damage_save_table(power, defense, save):
    assert save_target(power, defense) == save


def test_halberd_saves_never_better_than_4():
    assert save_spec(3, 6, halberd=True).target == 4   # 2+ -> 4+
    assert save_spec(3, 4, halberd=True).target == 4   # 3+ -> 4+
    assert save_spec(5, 3, halberd=True).target == 5   # 5+ stays 5+


def test_reroll_misses_then_forced_reroll_of_hits():
    log = EventLog()
    # 4+: [6, 2, 3] -> misses 2 and 3 re-rolled to [5, 1] -> [6, 5, 1]: 2 hits
    spec = hit_spec(3, 3, reroll="misses")
    assert roll_to_hit(FixedDice([6, 2, 3, 5, 1], log), 3, spec) == 2
    # forced: the 6 (not yet re-rolled) is re-rolled to 2; the 5 was already re-rolled
    # once, so it stands: [2, 5, 1] -> 1 hit
    spec = hit_spec(3, 3, reroll="misses", forced=True)
    d = FixedDice([6, 2, 3, 5, 1, 2])
    assert roll_to_hit(d, 3, spec) == 1 and d.remaining == []


def test_reroll_ones_only():
    # 4+: [1, 3, 4] -> only the 1 re-rolled, to 6 -> [6, 3, 4]: 2 hits
    d = FixedDice([1, 3, 4, 6])
    assert roll_to_hit(d, 3, hit_spec(3, 3, reroll="ones")) == 2 and d.remaining == []


def test_poisoned_attacks_reroll_saves_of_6():
    # 4+ saves [6, 6, 2]: poisoned, the two 6s are re-rolled to [1, 4] -> [1, 4, 2]:
    # one save, two failed
    d = FixedDice([6, 6, 2, 1, 4])
    assert roll_saves(d, 3, save_spec(3, 3, poisoned=True)) == 2 and d.remaining == []
    assert roll_saves(FixedDice([6, 6, 2]), 3, save_spec(3, 3)) == 1


def test_exact_single_attack_chances_from_the_same_code():
    # 4+ re-rolling misses: 1/2 + 1/2 x 1/2 = 3/4
    assert p_hit(hit_spec(3, 3, reroll="misses")) == Fraction(3, 4)
    # 3+ with hits forced to re-roll: 2/3 x 2/3 = 4/9
    assert p_hit(hit_spec(4, 3, forced=True)) == Fraction(4, 9)
    # 4+ save, poisoned: fails on 1-3 (1/2), or a 6 re-rolled into 1-3 (1/6 x 1/2): 7/12
    assert p_unsaved(save_spec(3, 3, poisoned=True)) == Fraction(7, 12)


def test_strike_logs_rolls_with_purpose_target_and_player():
    log = EventLog()
    hits, failed = strike(FixedDice([6, 5, 1, 2, 4], log), 3, hit_spec(3, 3), save_spec(3, 3),
                          attacker="red", defender="blue", label="b (a)")
    # [6, 5, 1] at 4+: 2 hits; saves [2, 4] at 4+: 1 failed
    assert (hits, failed) == (2, 1)
    rolls = [e.data for e in log.events if e.type == "roll"]
    assert [(r["player"], r["target"], r["dice"], r["result"]) for r in rolls] == [
        ("red", "4+", [6, 5, 1], 2), ("blue", "4+", [2, 4], 1)]
