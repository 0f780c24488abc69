"""The nine basic gambits and the Face-Off's rules (gambit-challenge.txt Step 2, Basic gambits).

Every expected value is worked out by hand from the gambit's text; the
duellists are built directly (WS, A, ... as in the gambit text's profiles).
"""

from __future__ import annotations

import pytest
from challengekit import duellist_for

from tabletop.board.state import Decision
from tabletop.rules.challenges.duellist import Duellist, Weapon
from tabletop.rules.challenges.gambits import (
    FEINT,
    FINISHING,
    FLURRY,
    GAMBIT_NAMES,
    GRANDSTAND,
    GUARD,
    SEIZE,
    TAUNT,
    TEST,
    WITHDRAW,
    allowed,
    face_off,
    first_chooser,
    gambit,
    precedence,
    why_not,
)
from tabletop.rules.challenges.strike import focus_dice, focus_modifiers, glory, strike_profiles
from tabletop.rules.decisions import Decisions
from tabletop.rules.dice import FixedDice
from tabletop.rules.events import EventLog

BLADE = Weapon("Blade")
D = duellist_for




def profiles(red: Duellist, rg: str, blue: Duellist, bg: str, advantage: str = "red", active: str = "red",
             rw: Weapon = BLADE, bw: Weapon = BLADE, **kw):
    sides = {"red": (red, rw, gambit(rg)), "blue": (blue, bw, gambit(bg))}
    return strike_profiles(sides, advantage, precedence(advantage, active), **kw)


def test_all_nine_basic_gambits_as_the_text_names_them():
    assert GAMBIT_NAMES == ("Seize the Initiative", "Flurry of Blows", "Test the Foe", "Guard Up",
                            "Taunt and Bait", "Grandstand", "Feint and Riposte", "Withdraw",
                            "Finishing Blow")


# ---------------------------------------------------------------- Focus dice
@pytest.mark.parametrize("name, faces, kept", [
    (SEIZE, [2, 5], 5),        # one extra dice, discard the lowest
    (GRANDSTAND, [2, 5], 2),   # one extra dice, discard the highest
    (FINISHING, [2, 5], 2),    # one extra dice, discard the highest
    (GUARD, [4], 4),           # a single dice
])
def test_focus_dice_per_gambit(name, faces, kept):
    dice = FixedDice(faces)
    assert focus_dice(dice, gambit(name), log=False) == (faces, kept)
    assert dice.remaining == []


def test_seize_the_initiative_logs_both_dice_and_the_total():
    log = EventLog()
    dice = FixedDice([1, 6], log)
    focus_dice(dice, gambit(SEIZE), player="red", modifiers={"Initiative": 4})
    (roll,) = [e for e in log.events if e.type == "roll"]
    assert roll["purpose"] == "Focus Roll" and roll["dice"] == [1, 6] and roll["result"] == 10  # 6 + 4


# ---------------------------------------------------------------- effects in the Strike Step
def test_flurry_of_blows_d3_attacks_and_damage_set_to_1():
    # A 2 + D3 (rolled 2) = 4; the weapon's D 2 becomes 1; no advantage for red
    p = profiles(D(), FLURRY, D("blue"), SEIZE, advantage="blue", rw=Weapon("Axe", damage=2),
                 flurry={"red": 2})["red"]
    assert (p.attacks, p.damage) == (4, 1)


def test_test_the_foe_no_bonus_in_focus_or_strike():
    d = D(edge=1, light=True, heavy=True)
    mods, dropped = focus_modifiers(d, BLADE, gambit(TEST), support=1, banked=2)
    # the positive modifiers go (Edge +1, Light +1, outside support +1, Guard Up +2); Initiative and Heavy
    # stay; outside support is always shown: +0 once dropped
    assert mods == {"Initiative": 4, "Heavy": -1, "outside support": 0}
    assert sorted(dropped) == sorted(["Duellist's Edge", "Light", "outside support", "Guard Up"])
    # holding the Challenge Advantage it still gains no +1 attack: A stays 2
    assert profiles(d, TEST, D("blue"), SEIZE, advantage="red")["red"].attacks == 2


def test_guard_up_ws_plus_one_and_a_single_attack_even_with_the_advantage():
    p = profiles(D(a=3), GUARD, D("blue"), SEIZE, advantage="red")["red"]
    assert (p.ws, p.attacks) == (5, 1)     # WS 4 + 1; A 3 (+1 advantage) -> a single attack


@pytest.mark.parametrize("red, blue, expected", [
    ((5, 3), (4, 2), (4, 2)),   # reduced to the enemy's
    ((4, 2), (4, 2), (3, 1)),   # already equal: -1
    ((3, 1), (5, 3), (3, 1)),   # "reduced": never raised to a higher enemy value
])
def test_taunt_and_bait_reduces_ws_and_attacks(red, blue, expected):
    p = profiles(D(ws=red[0], a=red[1]), TAUNT, D("blue", ws=blue[0], a=blue[1]), SEIZE,
                 advantage="blue")["red"]
    assert (p.ws, p.attacks) == expected


def test_taunt_and_bait_against_guard_up_follows_precedence():
    red, blue = D(ws=6, a=3), D("blue", ws=4, a=2)
    # red holds the advantage: its Taunt and Bait applies last and matches Guard Up's blue
    # (WS 4+1 = 5, a single attack): red WS 6 -> 5, A 3 -> 1, then +1 advantage = 2
    p = profiles(red, TAUNT, blue, GUARD, advantage="red")
    assert (p["red"].ws, p["red"].attacks) == (5, 2)
    assert (p["blue"].ws, p["blue"].attacks) == (5, 1)
    # blue holds it: Taunt and Bait reads blue before Guard Up (WS 4, A 2): red WS 4, A 2
    p = profiles(red, TAUNT, blue, GUARD, advantage="blue")
    assert (p["red"].ws, p["red"].attacks) == (4, 2)
    assert (p["blue"].ws, p["blue"].attacks) == (5, 1)   # +1 advantage, but a single attack


def test_grandstand_no_outside_support_but_as_many_attacks():
    mods, dropped = focus_modifiers(D(), BLADE, gambit(GRANDSTAND), support=2)
    assert mods == {"Initiative": 4, "outside support": 0} and dropped == ["outside support"]
    p = profiles(D(), GRANDSTAND, D("blue"), SEIZE, advantage="blue", support={"red": 2})["red"]
    assert p.attacks == 4                  # A 2 + the +2 support it would have had


def test_finishing_blow_strength_and_damage_plus_one():
    p = profiles(D(), FINISHING, D("blue"), SEIZE, advantage="blue")["red"]
    assert (p.strength, p.damage) == (5, 2)


def test_withdraw_single_attack_and_ends_with_no_points():
    assert profiles(D(a=4), WITHDRAW, D("blue"), SEIZE, advantage="red")["red"].attacks == 1
    ds = {"red": D(), "blue": D("blue")}
    # blue caused 2 wounds to red's 0: blue would win 2 points; red withdraws: nobody scores
    assert glory(ds, [], {"red": 0, "blue": 2}, {}).points == 2
    g = glory(ds, [], {"red": 0, "blue": 2}, {}, withdrawn="red")
    assert (g.winner, g.points) == (None, 0)


def test_challenge_advantage_plus_one_attack_for_that_strike_step():
    p = profiles(D(a=2), SEIZE, D("blue", a=2), FLURRY, advantage="red", flurry={"blue": 1})
    assert p["red"].attacks == 3 and p["blue"].attacks == 3   # 2 + 1 advantage; 2 + D3 (1)


# ---------------------------------------------------------------- choosing
def test_who_chooses_first():
    assert first_chooser(1, "red", None) == "red"      # round 1: the Challenger's player
    assert first_chooser(1, "red", "blue") == "red"
    assert first_chooser(2, "red", "blue") == "blue"   # later: the advantage holder


def test_precedence_advantage_else_active_player():
    assert precedence("blue", "red") == "blue"
    assert precedence(None, "red") == "red"


def test_feint_and_riposte_only_for_the_first_chooser_and_its_ban():
    assert FEINT in allowed(True, [], [])
    assert FEINT not in allowed(False, [SEIZE], [])
    assert "first gambit" in why_not(FEINT, False, [SEIZE], [])
    assert "named by Feint and Riposte" in why_not(GUARD, False, [FEINT], [GUARD])
    assert allowed(False, [FEINT], [GUARD]) == [n for n in GAMBIT_NAMES if n not in (FEINT, GUARD)]


def _face_off(scripted):
    log = EventLog()
    dec = Decisions([Decision(p, c, v) for p, c, v in scripted], log)
    fo = face_off(1, ("red", "blue"), "red", None, "red", dec, log)
    return fo, log


def test_face_off_scripted_feint_bans_a_gambit_and_a_forbidden_choice_is_overridden():
    fo, log = _face_off([("red", "gambit", FEINT), ("red", "feint", GUARD), ("blue", "gambit", GUARD)])
    assert fo.chosen == {"red": FEINT, "blue": SEIZE}   # Guard Up overridden; the default: first allowed
    assert fo.banned == [GUARD]
    (ov,) = [e for e in log.events if e.type == "decision_overridden"]
    assert ov["value"] == GUARD and "named by Feint and Riposte" in ov["reason"]


def test_no_gambit_twice_in_one_face_off():
    fo, log = _face_off([("red", "gambit", TAUNT), ("blue", "gambit", TAUNT)])
    assert fo.chosen["red"] == TAUNT and fo.chosen["blue"] == SEIZE
    (ov,) = [e for e in log.events if e.type == "decision_overridden"]
    assert "already chosen" in ov["reason"]
    chosen = [e["gambit"] for e in log.events if e.type == "gambit_chosen"]
    assert chosen == [TAUNT, SEIZE]


def test_feint_chosen_second_is_overridden():
    fo, log = _face_off([("red", "gambit", SEIZE), ("blue", "gambit", FEINT)])
    assert fo.chosen["blue"] != FEINT
    assert any("first gambit" in e["reason"] for e in log.events if e.type == "decision_overridden")
