"""Focus Roll modifiers and ties, the Strike Step's tables and order, the Glory Step's points
(gambit-challenge.txt Steps 3-5).  Hand-worked; the hit and wound tables are the named
defaults of ``strike.py`` (the standard game's melee tables)."""

from __future__ import annotations

import pytest
from challengekit import duellist_for

from tabletop.rules.challenges.duellist import Weapon
from tabletop.rules.challenges.gambit_rows import focus_draw
from tabletop.rules.challenges.gambits import GRANDSTAND, GUARD, gambit
from tabletop.rules.challenges.strike import (
    StrikeProfile,
    focus_modifiers,
    glory,
    hit_target,
    make_attacks,
    save_target,
    wound_target,
)
from tabletop.rules.dice import FixedDice
from tabletop.rules.events import EventLog

BLADE = Weapon("Blade")
D = duellist_for




# ---------------------------------------------------------------- Focus
def test_every_focus_modifier():
    d = D(i=4, heavy=True, wounds_lost=1, edge=1, light=True)
    wp = Weapon("Sword", initiative_mod=-1, edge=1)
    mods, dropped = focus_modifiers(d, wp, gambit(GUARD), support=2, banked=1)
    assert mods == {
        "Initiative": 3,          # I 4 with the weapon's -1
        "Heavy": -1,
        "wounds lost": -1,        # current Wounds 1 below base Wounds 2
        "Duellist's Edge": 2,     # (1) on the model + (1) on the weapon
        "Light": 1,
        "outside support": 2,
        "Guard Up": 1,            # banked from an enemy miss last Strike Step
    }
    assert dropped == []
    # a roll of 4: 4 + 3 - 1 - 1 + 2 + 1 + 2 + 1 = 11
    log = EventLog()
    out = focus_draw([("red", GUARD, mods), ("blue", GUARD, {"Initiative": 4})])(FixedDice([4, 1], log))
    assert dict(out.totals) == {"red": 11, "blue": 5} and out.winner == "red" and out.rerolls == 0
    roll = log.events[0]
    assert roll.type == "roll" and roll["purpose"] == "Focus Roll" and roll["player"] == "red"
    assert roll["modifiers"]["outside support"] == 2


def test_outside_support_is_always_a_focus_modifier():
    # no support counted: shown as +0; Grandstand with none to drop drops nothing
    mods, dropped = focus_modifiers(D(i=4), BLADE, gambit(GUARD), support=0)
    assert mods == {"Initiative": 4, "outside support": 0} and dropped == []
    mods, dropped = focus_modifiers(D(i=4), BLADE, gambit(GRANDSTAND), support=0)
    assert mods == {"Initiative": 4, "outside support": 0} and dropped == []
    # +1 counted, Grandstand: +0 and named as dropped
    mods, dropped = focus_modifiers(D(i=4), BLADE, gambit(GRANDSTAND), support=1)
    assert mods == {"Initiative": 4, "outside support": 0} and dropped == ["outside support"]


def test_focus_tie_is_rerolled_until_one_is_higher():
    log = EventLog()
    sides = [("red", GUARD, {"Initiative": 4}), ("blue", GUARD, {"Initiative": 4})]
    # 3+4 = 7 each: a tie; then 2+4 = 6 against 5+4 = 9: blue
    out = focus_draw(sides)(FixedDice([3, 3, 2, 5], log))
    assert (out.winner, dict(out.totals), out.rerolls) == ("blue", {"red": 6, "blue": 9}, 1)
    purposes = [e["purpose"] for e in log.events if e.type == "roll"]
    assert purposes == ["Focus Roll", "Focus Roll", "Focus Roll (tie re-roll)", "Focus Roll (tie re-roll)"]


# ---------------------------------------------------------------- tables
@pytest.mark.parametrize("att, dfn, target", [(5, 4, 3), (4, 4, 4), (4, 8, 4), (4, 9, 5), (1, 3, 5)])
def test_hit_table_ws_against_ws(att, dfn, target):
    assert hit_target(att, dfn) == target


@pytest.mark.parametrize("s, t, target", [(6, 4, 2), (5, 4, 3), (4, 4, 4), (3, 4, 5), (2, 4, 6), (1, 4, 6),
                                          (3, 7, None), (8, 4, 2)])
def test_wound_table_s_against_t(s, t, target):
    assert wound_target(s, t) == target


def test_saves_armour_with_ap_and_invulnerable():
    assert save_target(D(sv=3), -2) == 5            # 3+ worsened by 2
    assert save_target(D(sv=3, inv=4), -2) == 4     # the better: invulnerable 4+
    assert save_target(D(sv=2), -5) is None         # 7+: no save
    assert save_target(D(sv=2, inv=5), -5) == 5


# ---------------------------------------------------------------- Strike
def test_attacks_hit_wound_save_damage():
    prof = StrikeProfile("red", ws=5, attacks=3, strength=4, ap=0, damage=1)
    # hits on 3+ (WS 5 > 4): [3, 2, 6] -> 2; wounds on 4+ (S4 v T4): [4, 3] -> 1; save 3+: [2] fails
    b = make_attacks(FixedDice([3, 2, 6, 4, 3, 2]), prof, 4, D("blue"), 2, log=False)
    assert (b.hits, b.wounds, b.unsaved, b.damage, b.misses, b.removed) == (2, 1, 1, 1, 1, False)


# ---------------------------------------------------------------- Glory
def test_glory_command_model_removed_scores_base_wounds_plus_one():
    ds = {"red": D(), "blue": D("blue", w=3, command=True)}
    g = glory(ds, ["blue"], {"red": 3, "blue": 0}, {})
    assert (g.winner, g.points) == ("red", 4)       # base Wounds 3 + 1 (Command)


def test_glory_paragon_and_plain_model():
    assert glory({"red": D(), "blue": D("blue", w=2, paragon=True)}, ["blue"], {}, {}).points == 3
    assert glory({"red": D(w=1), "blue": D("blue")}, ["red"], {}, {}).points == 1
    # base Wounds, not the Wounds removed: a W3 model that had lost 2 before still gives 3
    assert glory({"red": D(), "blue": D("blue", w=3, wounds_lost=2)}, ["blue"], {"red": 1}, {}).points == 3


def test_glory_no_casualty_most_wounds_wins_that_many_points():
    g = glory({"red": D(), "blue": D("blue")}, [], {"red": 1, "blue": 2}, {})
    assert (g.winner, g.points) == ("blue", 2)


@pytest.mark.parametrize("removed, caused", [([], {"red": 0, "blue": 0}), ([], {"red": 1, "blue": 1}),
                                             (["red", "blue"], {"red": 2, "blue": 2})])
def test_glory_draws(removed, caused):
    g = glory({"red": D(), "blue": D("blue")}, removed, caused, {})
    assert (g.winner, g.points) == (None, 0)


def test_taunt_and_bait_points_per_time_chosen():
    g = glory({"red": D(), "blue": D("blue", w=1)}, ["blue"], {"red": 1}, {"red": 2, "blue": 1})
    assert (g.winner, g.points) == ("red", 3)       # W1 + 2 (red chose Taunt and Bait twice)
