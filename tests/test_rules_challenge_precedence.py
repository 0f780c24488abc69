"""Which gambit takes precedence in the first round (gambit-challenge.txt Step 2, Face-Off; issue 8
item 8).

When two gambits conflict, the Challenge Advantage holder's wins, else the Active Player's.  The
gambits are chosen in the Face-Off, before the round's Focus Roll, so in round 1 nobody holds the
advantage when they are chosen: the Active Player's gambit takes precedence, whoever chose first
and whoever then wins the Focus Roll (``gambits.PRECEDENCE_WHEN``).

Among the basic gambits the conflict is Taunt and Bait (reduce WS and A to the enemy's) against
Guard Up (+1 WS, a single attack): the gambit with precedence applies last (``TAUNT_READS``).

The map (fight-phase, 32mm bases, radius 0.63"): red's champion a/1 at (10, 10), blue's b/1 at
(10, 11.26): in base contact.  Each unit is the champion alone, so once the pair is set aside
neither player has a model left to give outside support (+0 each).

    red a/1:  WS 4, A 2, I 4        blue b/1: WS 6, A 3, I 4     (Sword: no modifiers)
"""

from __future__ import annotations

from challengekit import battlefield, events, harness, model, unit

from tabletop.rules.challenges.gambit import challenge_subphase
from tabletop.rules.challenges.gambits import GUARD, TAUNT

RED = {"WS": 4, "S": 4, "T": 4, "W": 2, "I": 4, "A": 2, "Ld": 8, "Sv": 3}
BLUE = {"WS": 6, "S": 4, "T": 4, "W": 2, "I": 4, "A": 3, "Ld": 8, "Sv": 3}
SWORD = [{"name": "Sword", "AP": 0, "D": 1}]


def duel(active: str, script: list, faces: list[int]):
    s = battlefield([unit("a", "red", [model(10.0, 10.0, role="champion")], profile=RED, weapons=SWORD),
                     unit("b", "blue", [model(10.0, 11.26, role="champion")], profile=BLUE, weapons=SWORD)],
                    active=active)
    log, dice, dec = harness(s, faces, script)
    challenge_subphase(s, dice, dec, log)
    assert dice.remaining == []                  # every face used: the attack counts were as worked out
    profiles = {e["player"]: e for e in events(log, "strike_profile")}
    return log, profiles


def test_round_one_the_active_player_who_chose_first_but_lost_the_focus_roll_takes_precedence():
    # red is active, issues with a/1 and so chooses first (Guard Up); blue replies Taunt and Bait.
    script = [("red", "issue_challenge", "a/1"), ("blue", "accept_challenge", "b/1"),
              ("red", "gambit", GUARD), ("blue", "gambit", TAUNT), ("blue", "prolong", False)]
    # Focus: red [1] + I 4 + 0 = 5, blue [6] + I 4 + 0 = 10: blue takes the Challenge Advantage.
    # Precedence is red's (active, nobody held the advantage at the Face-Off): blue's Taunt and Bait
    # applies first and reads red before Guard Up: blue WS 6 -> 4, A 3 -> 2; then red's Guard Up:
    # WS 4 + 1 = 5, a single attack.  Blue's advantage: A 2 + 1 = 3.
    # Strike: blue 3 attacks [1, 1, 1] (WS 4 v 5: 4+), all miss; red 1 attack [1] (WS 5 v 4: 3+), miss.
    log, prof = duel("red", script, [1, 6, 1, 1, 1, 1])
    assert events(log, "challenge_advantage")[0]["player"] == "blue"
    assert (prof["blue"]["WS"], prof["blue"]["A"]) == (4, 3)
    assert (prof["red"]["WS"], prof["red"]["A"]) == (5, 1)
    assert prof["red"]["precedence"] == prof["blue"]["precedence"] == "red"
    # (Before the fix the Focus Roll's winner, blue, had precedence: Guard Up first (red WS 5, A 1),
    # then Taunt and Bait read WS 5, A 1: blue WS 5, A 1 + 1 = 2.)
    hits = [e for e in events(log, "roll") if e["purpose"] == "Hit Test"]
    assert [(h["player"], h["target"], h["dice"]) for h in hits] == [("blue", 4, [1, 1, 1]), ("red", 3, [1])]


def test_round_one_the_active_player_who_chose_second_and_lost_the_focus_roll_takes_precedence():
    # blue is active but declines to issue; red issues with a/1 and chooses first (Taunt and Bait);
    # blue, the Active Player, replies Guard Up.  Red wins the Focus Roll.
    script = [("blue", "issue_challenge", "none"), ("red", "issue_challenge", "a/1"),
              ("blue", "accept_challenge", "b/1"),
              ("red", "gambit", TAUNT), ("blue", "gambit", GUARD), ("red", "prolong", False)]
    # Focus: red [6] + 4 = 10, blue [1] + 4 = 5: red takes the advantage.
    # Precedence is blue's (the Active Player): red's Taunt and Bait applies first and reads blue
    # before Guard Up (WS 6, A 3): red WS 4 and A 2 are already lower, so they stay; then blue's
    # Guard Up: WS 6 + 1 = 7, a single attack.  Red's advantage: A 2 + 1 = 3.
    # Strike: red 3 attacks [1, 1, 1] (WS 4 v 7, not more than double: 4+), miss; blue 1 attack [1], miss.
    log, prof = duel("blue", script, [6, 1, 1, 1, 1, 1])
    assert events(log, "challenge_advantage")[0]["player"] == "red"
    assert [(e["player"], e["first"]) for e in events(log, "gambit_chosen")] == [("red", True),
                                                                                 ("blue", False)]
    assert (prof["red"]["WS"], prof["red"]["A"]) == (4, 3)
    assert (prof["blue"]["WS"], prof["blue"]["A"]) == (7, 1)
    assert prof["red"]["precedence"] == "blue"
    # (Before the fix red, the Focus Roll's winner, had precedence: Guard Up first (blue WS 7, A 1),
    # then Taunt and Bait read A 1: red A 2 -> 1, + 1 = 2.)
