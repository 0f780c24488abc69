"""Statuses in a gambit challenge (gambit-challenge.txt, Disgraced; issue 8 item 9).

- A Disgraced model halves its Weapon Skill and Leadership for the rest of the Assault phase:
  every roll and test that reads them reads the halved value (``characters.as_read``), including
  its hit roll in the Fight step that follows (``fight_phase.profiles.DISGRACED_HIT_ROLL``).
- The effects on a unit that holds a model under a status reach every model of a Disgraced
  model's unit, the Disgraced model included, among them a Combat Initiative of 1.  The Focus
  Roll adds the model's Initiative with the chosen weapon's modifier - its Combat Initiative - so
  that term is 1.

A ``disgraced`` status read from a map was gained earlier in this phase (``gambit.DISGRACED_ENDS``).

The map (fight-phase, 32mm bases, radius 0.63"): red a/1 (champion) at (10, 10), a/2 at
(11.26, 10); blue b/1 (champion) at (10, 11.26), b/2 at (11.26, 11.26).  The lines touch.
Once the champions are set aside, red's a/2 is one engaged model (1 // 5 = +0 outside support);
blue's b/2 is in a unit under a status and is not counted (+0).
"""

from __future__ import annotations

import dataclasses

import pytest
from challengekit import battlefield, events, harness, model, unit

from tabletop.rules.challenges.duellist import duellist
from tabletop.rules.challenges.gambit import challenge_subphase
from tabletop.rules.challenges.gambits import GUARD, WITHDRAW, gambit
from tabletop.rules.challenges.strike import focus_modifiers
from tabletop.rules.decisions import Decisions
from tabletop.rules.dice import Dice
from tabletop.rules.events import EventLog
from tabletop.rules.fight_phase.profiles import disgraced_roll_needed, melee_weapon
from tabletop.rules.registry import find_ruleset

RED = {"WS": 4, "S": 4, "T": 4, "W": 2, "I": 4, "A": 1, "Ld": 8, "Sv": 3}
BLUE = {"WS": 6, "S": 4, "T": 4, "W": 2, "I": 4, "A": 1, "Ld": 10, "Sv": 3}
SWORD = [{"name": "Sword", "AP": 0, "D": 1}]
QUICK_SWORD = [{"name": "Quick sword", "I": 1, "AP": 0, "D": 1}]     # Initiative +1 with it


def two_lines(b1_status=(), b2_status=(), unit_status=()):
    red = unit("a", "red", [model(10.0, 10.0, role="champion"), model(11.26, 10.0)],
               profile=RED, weapons=SWORD)
    blue = unit("b", "blue", [model(10.0, 11.26, role="champion", status=list(b1_status)),
                              model(11.26, 11.26, status=list(b2_status))],
                profile=BLUE, weapons=QUICK_SWORD, status=list(unit_status))
    return battlefield([red, blue])


DUEL = [("red", "issue_challenge", "a/1"), ("blue", "accept_challenge", "b/1"),
        ("red", "gambit", GUARD), ("blue", "gambit", WITHDRAW),
        ("red", "weapon", "Sword"), ("blue", "weapon", "Quick sword"),
        ("red", "prolong", False), ("blue", "withdraw", False)]


def run_duel(state):
    log, dice, dec = harness(state, [4, 6, 1, 1], DUEL)
    challenge_subphase(state, dice, dec, log)
    assert dice.remaining == []
    focus = {e["player"]: e for e in events(log, "roll") if e["purpose"] == "Focus Roll"}
    return log, focus


# ---------------------------------------------------------------- Combat Initiative 1: Focus Roll
def test_a_disgraced_models_focus_roll_uses_combat_initiative_1():
    # b/1 was Disgraced earlier this phase.  Focus (one dice each: Guard Up, Withdraw):
    #   red  [4] + I 4 + support 0                       = 8
    #   blue [6] + Combat Initiative 1 + support 0       = 7   (not 6 + I 4 + Quick sword 1 = 11)
    # red takes the Challenge Advantage.  Strike: red Guard Up WS 4 + 1 = 5, a single attack, against
    # b/1's halved WS 6 -> 3: 3+, [1] misses; blue a single attack (Withdraw), WS 3 v 5: 4+, [1] misses.
    log, focus = run_duel(two_lines(b1_status=["disgraced"]))
    assert focus["red"]["result"] == 8 and focus["blue"]["result"] == 7
    assert focus["blue"]["modifiers"] == {"Initiative": 1, "outside support": 0}
    assert focus["red"]["modifiers"] == {"Initiative": 4, "outside support": 0}
    assert events(log, "challenge_advantage")[0]["player"] == "red"
    hits = {e["player"]: e for e in events(log, "roll") if e["purpose"] == "Hit Test"}
    assert hits["red"]["modifiers"] == {"WS": 5, "enemy WS": 3} and hits["red"]["target"] == 3
    assert hits["blue"]["target"] == 4


def test_a_champion_whose_unit_mate_is_disgraced_also_uses_combat_initiative_1():
    # b/2 (not b/1) is Disgraced: b/1 is in a unit that holds a model under a status.
    #   blue [6] + Combat Initiative 1 + 0 = 7; red [4] + 4 = 8: red takes the advantage.
    # b/1 itself is not Disgraced: its WS stays 6 (red WS 5 v 6: 4+; blue WS 6 v 5: 3+).
    log, focus = run_duel(two_lines(b2_status=["disgraced"]))
    assert focus["blue"]["result"] == 7 and focus["blue"]["modifiers"]["Initiative"] == 1
    assert events(log, "challenge_advantage")[0]["player"] == "red"
    hits = {e["player"]: e for e in events(log, "roll") if e["purpose"] == "Hit Test"}
    assert hits["red"]["modifiers"] == {"WS": 5, "enemy WS": 6} and hits["red"]["target"] == 4
    assert hits["blue"]["target"] == 3


@pytest.mark.parametrize("b1, b2, unit_status, initiative, ws", [
    ((), (), (), 5, 6),                       # no status: I 4 + Quick sword 1 = 5
    (("disgraced",), (), (), 1, 3),           # Disgraced itself: CI 1, WS 6 halved = 3
    ((), ("disgraced",), (), 1, 6),           # a unit-mate Disgraced: CI 1, WS unchanged
    ((), ("pinned",), (), 1, 6),              # a unit-mate under another status
    ((), (), ("pinned",), 1, 6),              # the unit under a status
])
def test_which_statuses_set_combat_initiative_1(b1, b2, unit_status, initiative, ws):
    s = two_lines(b1, b2, unit_status)
    d = duellist(s.model("b/1"), "blue", s.unit("b"))
    mods, _ = focus_modifiers(d, d.weapon("Quick sword"), gambit(GUARD), support=0)
    assert (mods["Initiative"], d.ws) == (initiative, ws)


# ---------------------------------------------------------------- halved WS and Ld later in the phase
@pytest.mark.parametrize("need, halved", [
    (2, 4),     # 2+ reads WS 7 - 2 = 5; halved (rounding up) 3; 7 - 3 = 4+
    (3, 5),     # WS 4 -> 2 -> 5+
    (4, 5),     # WS 3 -> 2 -> 5+
    (5, 6),     # WS 2 -> 1 -> 6+
    (6, 6),     # WS 1 -> 1 (never below 1) -> 6+
])
def test_a_disgraced_models_fight_phase_roll_needed(need, halved):
    s = two_lines(b1_status=["disgraced"])
    assert disgraced_roll_needed(s.model("b/1"), need) == halved
    assert disgraced_roll_needed(s.model("b/2"), need) == need      # b/2 is not Disgraced itself


TOUGH = {"WS": 6, "S": 3, "T": 6, "W": 10, "I": 4, "A": 1, "Ld": 10, "Sv": 2}
BLADE = [{"name": "Blade", "A": 1, "WS": 3, "S": 3, "AP": 0, "D": 1}]


def refusal_map(rules=None):
    red = unit("a", "red", [model(10.0, 10.0, role="champion"), model(11.26, 10.0)],
               profile=TOUGH, weapons=BLADE)
    blue = unit("b", "blue", [model(10.0, 11.26, role="champion"), model(11.26, 11.26)],
                profile=TOUGH, weapons=BLADE)
    return battlefield([red, blue], rules=rules,
                       decisions=[("red", "issue_challenge", "a/1"), ("blue", "accept_challenge", "refuse")])


def refusal_then_fight(rules=None):
    """Red challenges with a/1, blue refuses: b/1 (blue's only character) is Disgraced, stays on
    the table and fights in the Fight step.  W 10 and T 6 everywhere: nobody dies in one round."""
    s = refusal_map(rules)
    log = EventLog()
    res = find_ruleset(s.ruleset).fight(s, Dice(3, log), Decisions(s.decisions, log), log)
    hit_needed = {}
    last_hit = None
    for e in log.events:
        if e.type == "roll" and e["purpose"].startswith("hit roll: b "):
            last_hit = e["target"]
        elif e.type == "attacks_resolved" and e["unit"] == "b":
            hit_needed[tuple(e["models"])] = last_hit
    return res, log, hit_needed


def test_a_disgraced_model_hits_with_halved_ws_in_the_fight_step_of_the_same_phase():
    _, log, needed = refusal_then_fight()
    (ref,) = events(log, "challenge_refused")
    # b/1 Disgraced: WS 6 -> 3, Ld 10 -> 5 (halved, rounding up)
    assert (ref["disgraced"], ref["WS"], ref["Ld"]) == ("b/1", 3, 5)
    # the Blade is 3+: b/1 now hits on 5+ (WS 7 - 3 = 4, halved 2, 7 - 2 = 5); b/2 still on 3+
    assert needed == {("b/1",): 5, ("b/2",): 3}
    # the status goes at the end of the run (End Phase), after the hit roll read it
    assert [e["model"] for e in events(log, "status_removed")] == ["b/1"]


def test_the_halved_hit_roll_can_be_turned_off():
    _, _, needed = refusal_then_fight({"disgraced_hit_roll": "unchanged"})
    assert needed == {("b/1", "b/2"): 3}          # one group, both on the Blade's 3+


def test_melee_weapon_reads_the_status():
    s = refusal_map()
    s = s.with_models([dataclasses.replace(s.model("b/1"), status=("disgraced",))])
    assert melee_weapon(s, s.model("b/1")).WS == 5      # Blade 3+ -> 5+
    assert melee_weapon(s, s.model("b/2")).WS == 3


def test_the_default_disgrace_reads_halved_leadership_of_a_model_already_disgraced():
    # Blue has two characters: b/1 Disgraced earlier this phase (Ld 10 -> 5, WS 6 -> 3) and b/3
    # (Ld 8, WS 4).  Blue refuses; the default policy disgraces the highest Leadership, then WS, as
    # read now: b/3 (Ld 8) over b/1 (Ld 5), not b/1 on its unhalved Ld 10.
    red = unit("a", "red", [model(10.0, 10.0, role="champion"), model(11.26, 10.0)], profile=RED,
               weapons=SWORD)
    blue = unit("b", "blue", [model(10.0, 11.26, role="champion", status=["disgraced"]),
                              model(11.26, 11.26),
                              model(12.52, 11.26, role="champion", profile={**BLUE, "Ld": 8, "WS": 4})],
                profile=BLUE, weapons=SWORD)
    s = battlefield([red, blue])
    log, dice, dec = harness(s, [], [("red", "issue_challenge", "a/1"), ("blue", "accept_challenge", "refuse")])
    after, _ = challenge_subphase(s, dice, dec, log)
    (ref,) = events(log, "challenge_refused")
    assert ref["disgraced"] == "b/3"
    assert (ref["WS"], ref["Ld"]) == (2, 4)              # b/3 now: WS 4 -> 2, Ld 8 -> 4
    assert after.model("b/1").status == ("disgraced",)   # not given twice
