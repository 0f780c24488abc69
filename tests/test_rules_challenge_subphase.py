"""The Challenge Sub-phase end to end on small maps (gambit-challenge.txt Steps 1-5, Disgraced,
Resolution), with scripted decisions and FixedDice.

The map (fight-phase, engagement range 2"), 32mm bases (radius 0.63"):

    blue  b/1 (champion) at (10, 11.26), b/2..b/6 at x = 11.26 .. 16.30, y = 11.26
    red   a/1 (champion) at (10, 10),    a/2..a/6 at x = 11.26 .. 16.30, y = 10
          a/7..a/11 at y = 5 (6.26 - 1.26 = 5" from the blue line: not engaged)

Each line touches the other (gap 1.26 - 1.26 = 0): a/2..a/6 and b/2..b/6 are engaged.
"""

from __future__ import annotations

import pytest
from challengekit import battlefield, events, harness, model, unit

from tabletop.geometry import snapshot
from tabletop.rules.challenges.duellist import duellist
from tabletop.rules.challenges.gambit import (
    challenge_subphase,
    eligible,
    end_phase,
    outside_support,
    return_models,
)
from tabletop.rules.dice import Dice

XS = [10.0, 11.26, 12.52, 13.78, 15.04, 16.30]
HERO = {"WS": 5, "S": 4, "T": 4, "W": 2, "I": 5, "A": 1, "Ld": 9, "Sv": 3}
SWORD = [{"name": "Sword", "AP": 0, "D": 1}]


def red(back_y: float = 5.0, status=None, extra=()):
    ms = [model(10.0, 10.0, role="champion", profile=HERO, weapons=SWORD)]
    ms += [model(x, 10.0) for x in XS[1:]] + [model(x, back_y) for x in XS[1:]] + list(extra)
    return unit("a", "red", ms, status=status, weapons=SWORD)


def blue(role="champion", troopers=True):
    ms = [model(10.0, 11.26, role=role, profile={**HERO, "I": 4}, weapons=SWORD)]
    if troopers:
        ms += [model(x, 11.26) for x in XS[1:]]
    return unit("b", "blue", ms, weapons=SWORD)


# ---------------------------------------------------------------- outside support, from the table
def test_outside_support_counts_engaged_friends_per_five():
    s = battlefield([red(), blue()]).without_models(["a/1", "b/1"])   # the pair set aside
    bonus, counted, how = outside_support(s, ("a", "b"), "red")
    assert (bonus, how) == (1, "engaged")                   # 5 engaged: +1; the 5 at y = 5 do not count
    assert counted == ["a/2", "a/3", "a/4", "a/5", "a/6"]
    s = battlefield([red(back_y=8.6), blue()]).without_models(["a/1", "b/1"])
    # the back five at y = 8.6: 11.26 - 8.6 - 1.26 = 1.4" from the blue line: engaged: 10 -> +2
    assert outside_support(s, ("a", "b"), "red")[0] == 2
    s = battlefield([red(back_y=8.0), blue()]).without_models(["a/1", "b/1"])
    # at y = 8.0: 11.26 - 8.0 - 1.26 = 2.0": still within 2" -> +2; at 7.9 (2.1") -> +1
    assert outside_support(s, ("a", "b"), "red")[0] == 2
    s = battlefield([red(back_y=7.9), blue()]).without_models(["a/1", "b/1"])
    assert outside_support(s, ("a", "b"), "red")[0] == 1


def test_outside_support_excludes_statuses_vehicles_and_counts_walkers_as_five():
    s = battlefield([red(status=["pinned"]), blue()]).without_models(["a/1", "b/1"])
    assert outside_support(s, ("a", "b"), "red")[:2] == (0, [])
    walker = unit("w", "red", [model(20.0, 11.26)], keywords=["walker"])        # touches nothing red
    tank = unit("v", "red", [model(18.82, 10.0)], keywords=["vehicle"])
    bl = blue()
    bl["models"].append(model(18.82, 11.26))
    bl["models"].append(model(20.0, 12.52))
    s = battlefield([red(), bl, walker, tank]).without_models(["a/1", "b/1"])
    g = snapshot(s)
    combat = tuple(g.engagements[0])
    assert set(combat) == {"a", "b", "v", "w"}
    bonus, counted, _ = outside_support(s, combat, "red", g)
    # 5 troopers + walker (5) = 10 -> +2; the vehicle counts 0
    assert bonus == 2 and "w/1" in counted and "v/1" not in counted


def test_outside_support_when_the_enemy_has_no_model_left():
    s = battlefield([red(), blue(troopers=False)]).without_models(["a/1", "b/1"])
    bonus, counted, how = outside_support(s, ("a", "b"), "red")
    # blue has no model left: +2 per full or partial five of red's 10 (engaged or not) = +4
    assert (bonus, how, len(counted)) == (4, "no enemy left", 10)


# ---------------------------------------------------------------- declare, refuse, Disgraced
def test_only_characters_are_eligible():
    s = battlefield([red(), blue()])
    assert eligible(s, ("a", "b"), "red") == ["a/1"]
    assert eligible(s, ("a", "b"), "blue") == ["b/1"]


def test_refusal_disgraces_a_model_that_could_have_accepted():
    s = battlefield([red(), blue()])
    log, dice, dec = harness(s, [], [("red", "issue_challenge", "a/1"), ("blue", "accept_challenge", "refuse"),
                                     ("red", "disgrace", "b/2")])
    after, sub = challenge_subphase(s, dice, dec, log)
    # b/2 is no character: it could not have accepted; the rules nominate b/1 instead
    (ov,) = events(log, "decision_overridden")
    assert ov["choice"] == "disgrace" and "could not have accepted" in ov["reason"]
    assert events(log, "challenge_issued")[0]["challenger"] == "a/1"
    assert events(log, "challenge_refused")[0]["disgraced"] == "b/1"
    assert after.model("b/1").status == ("disgraced",) and after.model("b/2").status == ()
    assert after.has_unit("a") and len(after.unit("a").models) == 11      # nothing set aside
    # Disgraced: WS 5 and Ld 9 halved (rounding up) -> 3 and 5, for the phase
    d = duellist(after.model("b/1"), "blue")
    assert (d.ws, d.ld) == (3, 5)
    # and its unit counts as under a status for outside support
    assert outside_support(after, ("a", "b"), "blue")[0] == 0
    # removed in the End Phase
    assert end_phase(after).model("b/1").status == ()


def test_the_reactive_player_issues_after_the_active_player_declines():
    # ISSUE_ORDER: red (active) is asked first and declines; blue then issues with b/1
    s = battlefield([red(), blue()])
    log, _, dec = harness(s, [], [("blue", "issue_challenge", "b/1"), ("red", "issue_challenge", "none"),
                                  ("red", "accept_challenge", "a/1")])
    _, sub = challenge_subphase(s, Dice(1, log), dec, log)          # the duel's dice do not matter here
    (ch,) = sub.challenges
    assert (ch.challenger, ch.challenged, ch.players) == ("b/1", "a/1", ("blue", "red"))
    assert {0, 1, 2} <= dec.used                     # red's "none" was asked for and used
    (iss,) = events(log, "challenge_issued")
    assert (iss["player"], iss["challenger"]) == ("blue", "b/1")


def test_weapons_are_chosen_reactive_player_first_every_round():
    # Step 3: "starting with the Reactive Player"; red is active: blue, then red, in both rounds
    _, _, _, log = run_prolonged()
    order = [(e["player"], e["model"]) for e in events(log, "weapon_chosen")]
    assert order == [("blue", "b/1"), ("red", "a/1")] * 2
    kinds = [e.type for e in log.events]
    firsts = [i for i, k in enumerate(kinds) if k == "weapon_chosen"]
    focus = [i for i, e in enumerate(log.events) if e.type == "roll" and e["purpose"].startswith("Focus")]
    assert firsts[1] < focus[0] and firsts[3] < focus[2]          # both chosen before the Focus Rolls


# ---------------------------------------------------------------- a prolonged challenge
PROLONG = [("red", "issue_challenge", "a/1"), ("blue", "accept_challenge", "b/1"),
           ("red", "gambit", "Seize the Initiative"), ("blue", "gambit", "Guard Up"),
           ("red", "prolong", True),
           ("red", "gambit", "Finishing Blow"), ("blue", "gambit", "Seize the Initiative")]
# round 1: Focus red [6, 6] keep 6 + I5 + support 1 = 12; blue [1] + I4 + 1 = 6: red.
#          red 1 + 1 (advantage) = 2 attacks at WS 5 v 4+1 (Guard Up): 4+: [1, 1] miss;
#          blue 1 attack (Guard Up) WS 5 v 5: 4+: [1] miss.  Blue banks +2 (two red misses).
# round 2: red [6, 6] keep lowest 6 + 5 + 1 = 12; blue [1, 1] keep 1 + 4 + 1 + 2 (Guard Up) = 8: red.
#          red 2 attacks at S 4+1: hits 3+ [6, 6], wounds 3+ [6, 6], saves 3+ [1, 1]: 2 x D 1+1 = 4
FACES = [6, 6, 1, 1, 1, 1, 6, 6, 1, 1, 6, 6, 6, 6, 1, 1]


def run_prolonged(role="commander"):
    s = battlefield([red(), blue(role=role)])
    log, dice, dec = harness(s, FACES, PROLONG)
    after, sub = challenge_subphase(s, dice, dec, log)
    assert dice.remaining == []
    return s, after, sub, log


def test_prolonged_challenge_and_glory_for_a_command_model():
    s, after, sub, log = run_prolonged()
    assert [e["player"] for e in events(log, "challenge_advantage")] == ["red", "red"]
    assert events(log, "prolong") == [{"type": "prolong", "rule": "gambit-challenge.txt Step 4 (Strike), Draw",
                                       "player": "red", "value": True}]
    focus = [e for e in events(log, "roll") if e["purpose"].startswith("Focus")]
    assert [f["result"] for f in focus] == [12, 6, 12, 8]
    assert focus[3]["modifiers"]["Guard Up"] == 2 and focus[0]["modifiers"]["outside support"] == 1
    (res,) = events(log, "challenge_result")
    # the Command model (role commander) removed: base Wounds 2 + 1 = 3 points to red
    assert (res["winner"], res["removed"], res["points"]) == ("red", ["b/1"], 3)
    assert sub.points() == {"red": 3}
    # set aside: neither is on the table during the fight step
    assert not any(m.id in ("a/1", "b/1") for m in after.models())


def test_glory_for_a_champion_is_its_base_wounds():
    _, _, sub, log = run_prolonged(role="champion")
    assert events(log, "challenge_result")[0]["points"] == 2


def test_test_the_foe_gives_the_next_face_off_to_its_player():
    s = battlefield([red(), blue()])
    script = [("red", "issue_challenge", "a/1"), ("blue", "accept_challenge", "b/1"),
              ("red", "gambit", "Seize the Initiative"), ("blue", "gambit", "Test the Foe"),
              ("red", "prolong", True),
              ("blue", "gambit", "Seize the Initiative"), ("red", "gambit", "Guard Up"),
              ("blue", "prolong", False)]
    # r1: red [6, 6] -> 12, blue [1] -> 1 + 4 (+1 support dropped by Test the Foe) = 5; red 2 attacks
    #     [1, 1]; blue 1 attack [1].  r2: blue chooses first; red [1] -> 1+5+1 = 7, blue [6, 6] -> 11:
    #     blue 2 attacks v WS 6 (Guard Up): 4+ [1, 1]; red 1 attack [1].  Blue ends it: a draw.
    log, dice, dec = harness(s, [6, 6, 1, 1, 1, 1, 1, 6, 6, 1, 1, 1], script)
    after, sub = challenge_subphase(s, dice, dec, log)
    chosen = [(e["round"], e["player"], e["first"]) for e in events(log, "gambit_chosen")]
    assert chosen == [(1, "red", True), (1, "blue", False), (2, "blue", True), (2, "red", False)]
    focus = [e for e in events(log, "roll") if e["purpose"].startswith("Focus")]
    assert focus[1]["modifiers"] == {"Initiative": 4, "outside support": 0} and focus[1]["result"] == 5
    res = events(log, "challenge_result")[0]
    assert (res["winner"], res["points"]) == (None, 0)
    assert len(sub.set_aside) == 2


# ---------------------------------------------------------------- Resolution
def test_returned_where_it_stood_when_free():
    _, after, sub, log = run_prolonged()
    back = return_models(after, sub, log)
    (ev,) = events(log, "returned")
    assert ev["model"] == "a/1" and ev["at"] == [10.0, 10.0] and ev["engaged"] is True
    assert back.model("a/1").at == (10.0, 10.0) and len(back.unit("a").models) == 11


def test_returned_in_coherency_and_engaged_when_its_spot_is_taken():
    _, after, sub, log = run_prolonged()
    after = after.with_positions({"a/2": (10.0, 10.0)})     # a/2 stepped into a/1's place
    back = return_models(after, sub, log)
    m = back.model("a/1")
    # the nearest legal spot: a/2's old place, 1.27" (two radii + tol/2) left of a/3 at (12.52, 10)
    assert m.x == pytest.approx(12.52 - 2 * 32 / 25.4 / 2 - 0.01, abs=1e-6) and m.y == pytest.approx(10.0)
    g = snapshot(back)
    assert g.overlaps == []
    assert g.model_engaged("a/1")
    assert any(g.model_distance("a/1", o) <= 2.0 + g.tol for o in g.unit_models("a") if o != "a/1")


def test_returned_into_base_contact_when_its_unit_was_wiped_out():
    _, after, sub, log = run_prolonged()
    wiped = after.without_models([m.id for m in after.unit("a").models])   # the fight step killed them
    assert not wiped.has_unit("a")
    back = return_models(wiped, sub, log)
    m = back.model("a/1")
    # base contact with the locked unit b, nearest (10, 10): on the ring 1.27" round b/2 (11.26, 11.26)
    # at 225 degrees: 11.26 - 1.27 * cos 45 = 10.3621
    r = 2 * 32 / 25.4 / 2 + 0.01
    assert m.x == pytest.approx(11.26 - r * 0.5 ** 0.5, abs=1e-6)
    assert m.y == pytest.approx(11.26 - r * 0.5 ** 0.5, abs=1e-6)
    assert snapshot(back).in_base_contact("a/1", "b/2")
    assert events(log, "returned")[0]["engaged"] is True
