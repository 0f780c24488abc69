"""Odds of a rank-and-flank round with a character challenge (rank_and_flank/odds.py,
character-challenge.txt ¶1-¶6), worked by hand.

Two units of 2 files x 2 ranks, front to front (a red facing north, b blue facing south).
Troops: Skill 3, Power 3, Defense 3, Attacks 0 (they strike no blow), Wounds 1, Discipline 7.
2-wide ranks never count (a rank needs 5 models): no rank bonus, and the break test adds no ranks.
Characters (role "commander", file 1 of the front rank):
  a/1 (red):  Skill 4, Power 4, Defense 3, Attacks 2, Wounds 1, Discipline 9
  b/1 (blue): Skill 3, Power 3, Defense 4, Attacks 1, Wounds 1, Discipline 9
So every point of combat score comes from these two characters.

Challenge accepted (the default policy: red issues, blue accepts; see ``test_accepted``):
  a/1 at b/1: hits 3+ (Skill 4 > 3) = 2/3, Power 4 v Defense 4 saves 4+ so fails 1/2: 1/3 a blow.
     K = wounds a/1 inflicts ~ Binomial(2, 1/3): P(0) = 4/9, P(1) = 4/9, P(2) = 1/9.
  b/1 at a/1: hits 4+ (Skill 3 v 4) = 1/2, Power 3 v Defense 3 fails 1/2: 1/4 a blow.
     J ~ Binomial(1, 1/4).
  Red's score is K (K = 2 on a Wounds 1 victim: 1 + overkill 1, under the +3 cap, ¶6); blue's is J.
Old behaviour (characters as ordinary commanders hitting the enemy unit, no challenge):
  a/1 at b's troops: hits 3+, Power 4 v Defense 3 saves 5+ so fails 2/3: 4/9 a blow;
  red wins P(K' >= 1) P(J = 0) + P(K' = 2) P(J = 1) = 56/81 x 3/4 + 16/81 x 1/4 = 46/81.
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

from rnf_maps import rnf_map, unit

from tabletop.cli import main
from tabletop.rules.rank_and_flank import odds as O

TROOPS = {"Attacks": 0}
RED_CAPTAIN = {"name": "Captain", "role": "commander", "file": 1, "rank": 1,
               "profile": {"Skill": 4, "Power": 4, "Defense": 3, "Attacks": 2, "Wounds": 1,
                           "Discipline": 9}}
BLUE_CAPTAIN = {"name": "Captain", "role": "commander", "file": 1, "rank": 1,
                "profile": {"Skill": 3, "Power": 3, "Defense": 4, "Attacks": 1, "Wounds": 1,
                            "Discipline": 9}}
OLD_RED_WINS = Fraction(46, 81)          # module docstring: the characters hitting the units


def challenge_map(decisions=None):
    return rnf_map(unit("a", "red", (24, 24), 90, 2, 2, profile=TROOPS, models=[RED_CAPTAIN]),
                   unit("b", "blue", (24, 24), 270, 2, 2, profile=TROOPS, models=[BLUE_CAPTAIN]),
                   rules={"challenges": "character"}, decisions=decisions)


def refused_map():
    return challenge_map([{"player": "red", "choice": "issue_challenge", "value": "a/1"},
                          {"player": "blue", "choice": "accept_challenge", "value": "refuse"},
                          {"player": "red", "choice": "disgrace", "value": "b/1"}])


def brute_force_duel_score() -> dict[str, Fraction]:
    """Independent of the odds engine: every face of a/1's 2 attack rolls and 2 saves and b/1's
    1 attack roll and 1 save (6^6 histories), the scores compared as the module docstring says."""
    win = {"red": Fraction(0), "blue": Fraction(0), "tie": Fraction(0)}
    each = Fraction(1, 6 ** 6)
    for h1, h2, s1, s2, hb, sb in itertools.product(range(1, 7), repeat=6):
        k = sum(1 for h, s in ((h1, s1), (h2, s2)) if h >= 3 and s < 4)    # 3+ to hit, saved on 4+
        j = 1 if hb >= 4 and sb < 4 else 0                                   # 4+ to hit, saved on 4+
        win["red" if k > j else "blue" if j > k else "tie"] += each
    return win


def test_accepted_challenge_odds_worked_by_hand():
    r = O.engagement_odds(challenge_map(), ["a", "b"])
    assert r["method"] == "exact"
    # the default policy: red's value E[K] - E[J] = 2/3 - 1/4 = 5/12 >= 0 so a/1 issues;
    # blue expects to lose by 5/12 <= REFUSE_COST (1) so b/1 accepts
    assert r["challenge"] == {"challenger": "a/1", "challenged": "b/1", "issued_by": "red",
                              "disgraced": None, "continuing": False, "forced": False}
    ex = r["exact"]
    # red wins when K > J: P(K>=1) P(J=0) + P(K=2) P(J=1) = 5/9 x 3/4 + 1/9 x 1/4 = 16/36 = 4/9
    # blue wins when K = 0, J = 1: 4/9 x 1/4 = 1/9;  tie: 4/9 x 3/4 + 4/9 x 1/4 = 4/9
    assert ex["win"] == {"red": "4/9", "blue": "1/9"} and ex["tie"] == "4/9"
    bf = brute_force_duel_score()
    assert (bf["red"], bf["blue"], bf["tie"]) == (Fraction(4, 9), Fraction(1, 9), Fraction(4, 9))
    assert Fraction(ex["win"]["red"]) != OLD_RED_WINS
    # overkill adds to red's score only when K = 2 (one wound beyond b/1's single Wound): 1/9;
    # b/1 has one attack and a/1 one Wound: never any overkill for blue
    assert ex["challenge_overkill"] == {"red": "1/9", "blue": "0"}
    # b/1 is slain when K >= 1: 5/9; a/1 when J = 1: 1/4
    assert ex["challenge_slain"] == {"a/1": "1/4", "b/1": "5/9"}
    # the loser's character is always dead (a score needs a wound on a Wounds 1 character), so it
    # tests on the troops' Discipline 7, no ranks: breaks on 2D6 > 7 - difference.
    # blue: difference 1 (K=1,J=0: 1/3; K=2,J=1: 1/36) breaks 21/36; difference 2 (K=2,J=0: 1/12)
    # breaks 26/36:  13/36 x 7/12 + 1/12 x 13/18 = 91/432 + 26/432 = 117/432 = 13/48
    # red: difference 1 (K=0,J=1: 1/9) breaks 7/12: 7/108
    assert ex["breaks"] == {"a": "7/108", "b": "13/48"}
    assert ex["loser_breaks"] == {"red": "7/108", "blue": "13/48"}


def test_refused_challenge_odds_worked_by_hand():
    r = O.engagement_odds(refused_map(), ["a", "b"])
    assert r["method"] == "exact"
    assert r["challenge"]["challenger"] == "a/1" and r["challenge"]["disgraced"] == "b/1"
    assert r["challenge"]["challenged"] is None
    assert "challenge_slain" not in r and "challenge_overkill" not in r       # nobody duels
    ex = r["exact"]
    # b/1 retires in disgrace (¶3): it strikes no blow, and b's troops have no attacks: blue scores 0.
    # a/1 fights normally (¶3): a commander's 2 attacks at b's troops, 4/9 each:
    # K' ~ Binomial(2, 4/9): P(0) = 25/81, P(1) = 40/81, P(2) = 16/81.
    # red wins 1 - 25/81 = 56/81, blue never, tie 25/81
    assert ex["win"] == {"red": "56/81", "blue": "0"} and ex["tie"] == "25/81"
    assert Fraction(ex["win"]["red"]) != OLD_RED_WINS
    # b tests without b/1's Discipline 9 (no Leadership that turn, ¶3): the troops' 7, no ranks.
    # difference 1 breaks on 2D6 > 6 (21/36), difference 2 on 2D6 > 5 (26/36):
    # 40/81 x 7/12 + 16/81 x 13/18 = 840/2916 + 416/2916 = 1256/2916 = 314/729
    # (with Discipline 9 it would be 40/81 x 10/36 + 16/81 x 15/36 = 640/2916)
    assert ex["breaks"] == {"a": "0", "b": "314/729"}
    assert ex["loser_breaks"] == {"red": "0", "blue": "314/729"}


def test_monte_carlo_rolls_the_challenge_with_each_runs_dice():
    # every run resolves the duel with its own dice (not the first run's): the estimates agree
    # with the hand values of test_accepted_challenge_odds_worked_by_hand within their error
    r = O.engagement_odds(challenge_map(), ["a", "b"], exact=False, runs=3000, seed=3)
    assert r["method"] == "monte carlo"
    for got, se, want in ((r["win"]["red"], r["se"]["win"]["red"], 4 / 9),
                          (r["win"]["blue"], r["se"]["win"]["blue"], 1 / 9),
                          (r["challenge_overkill"]["red"], r["se"]["challenge_overkill"]["red"], 1 / 9),
                          (r["challenge_slain"]["b/1"], r["se"]["challenge_slain"]["b/1"], 5 / 9)):
        assert abs(got - want) < 4 * se + 1e-9
    assert r["challenge_overkill"]["blue"] == 0


def test_the_duel_is_two_chances_of_wounds_inflicted():
    # (was: the old engine's count of histories) the duel's chances list K (0..2) and J (0..1),
    # one chance each after the round's roll groups (none here: the troops have no attacks)
    from tabletop.rules.engine.pending import Chance
    from tabletop.rules.rank_and_flank.odds import _to_first_chance
    from tabletop.rules.rank_and_flank.phase import round_machine
    state = challenge_map()
    machine, start = round_machine(state, ["a", "b"])
    st = _to_first_chance(machine, start, state.decisions)
    assert st.cursor == "duel" and isinstance(st.pending, Chance)
    assert st.pending.outcomes == ((0, Fraction(4, 9)), (1, Fraction(4, 9)), (2, Fraction(1, 9)))
    st, _ = machine.answer(st, 1)
    assert st.cursor == "duel"
    assert st.pending.outcomes == ((0, Fraction(3, 4)), (1, Fraction(1, 4)))


def test_cli_odds_json_keeps_its_keys_and_adds_the_challenge(capsys, tmp_path):
    from tabletop.board.mapfile import save
    path = tmp_path / "challenge.toml"
    save(challenge_map(), str(path))
    assert main(["fight", str(path), "--odds", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    (e,) = doc["engagements"]
    for key in ("units", "players", "method", "histories", "win", "tie", "loser_breaks", "breaks",
                "exact"):
        assert key in e
    assert "combats" in doc and "challenge_odds" in doc          # the challenge report stays
    assert e["challenge"]["challenged"] == "b/1"
    assert abs(e["challenge_overkill"]["red"] - 1 / 9) < 1e-12
    assert main(["fight", str(path), "--odds"]) == 0
    text = capsys.readouterr().out
    assert "challenge: a/1 v b/1 (issued by red)" in text and "overkill adds to red's score:  11.1%" in text
