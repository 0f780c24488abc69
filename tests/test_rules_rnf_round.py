"""Whole combat rounds with scripted dice (rank-and-flank-combat.txt), worked by hand.

Dice order (rules/rank_and_flank/round.py): units in engagement order (sorted
ids), each unit's attack groups (front, lance, flank, support, commander,
duel): its attack rolls, then the target's damage saves; then the losers'
break tests.  Profiles are tests/rnf_maps.py INF unless said: Skill 3, Power 3,
Defense 3, Attacks 1, Wounds 1, Discipline 7, Move 4, so every attack roll
needs 4+ and every save 4+.  B = 25/25.4" is one base.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rnf_maps import B25 as B
from rnf_maps import events, rnf_map, run, unit

from tabletop.board import mapfile


def front_pair(b_kw=None, a_kw=None, **map_kw):
    """a: red 5x4 facing 90, front edge centred on (24, 24); b: blue 5x4 facing 270 on it."""
    return rnf_map(unit("a", "red", (24, 24), 90, 5, 4, **(a_kw or {})),
                   unit("b", "blue", (24, 24), 270, 5, 4, **(b_kw or {})), **map_kw)


# a: 10 attack rolls (5 front + 5 supporting): six 6s -> 6 hits; b saves [1,1,1,1,4,4]:
# 4 failed -> 4 wounds.  b: 10 attack rolls, all 1s: no hits, no saves rolled.
A_WINS = [6, 6, 6, 6, 6, 6, 1, 1, 1, 1] + [1, 1, 1, 1, 4, 4] + [1] * 10


def test_front_fight_casualties_from_the_rear_score_and_flee_directly_away():
    res, log, dice = run(front_pair(), A_WINS + [3, 4])
    assert dice.remaining == []
    # b's 4 casualties come off its rear rank (b/16..b/20), ends inwards, right end first
    assert [e["model"] for e in events(log, "removed")] == ["b/20", "b/16", "b/19", "b/17"]
    (score,) = events(log, "combat_score")
    # a: 4 wounds + 2 ranks (ranks 2 and 3 of 5) = 6; b: 0 + 2 ranks (ranks 2, 3 of 5;
    # rank 4 now holds 1) = 2; a wins by 4
    assert score["scores"] == {"red": 6, "blue": 2}
    assert score["winner"] == "red" and score["difference"] == 4
    (bt,) = events(log, "break_test")
    # 2D6 3 + 4 = 7 against Discipline 7 + ranks 2 - difference 4 = 5: breaks
    assert (bt["total"], bt["target"], bt["ranks"], bt["passed"]) == (7, 5, 2, False)
    (fled,) = events(log, "fled")
    # a touches b's front: directly away is opposite the front's outward normal (270): 90
    assert fled["direction"] == pytest.approx(90.0) and fled["distance"] == pytest.approx(4.0)
    b = res.state.unit("b")
    assert "fleeing" in b.status
    # b turned about its centre (24, 24 + 2B) and ran 4": b/18 from (24, 24 + 3.5B)
    # to (24, 24 + 0.5B) then to (24, 28 + 0.5B), facing 90
    m = b.model("b/18")
    assert (m.x, m.y, m.facing_deg) == pytest.approx((24, 28 + 0.5 * B, 90))
    assert events(log, "turned_to_face") == []
    # the map written after keeps the fleeing status
    back = mapfile.from_dict(mapfile.to_dict(res.state))
    assert "fleeing" in back.unit("b").status and len(back.unit("b").models) == 16


def test_tie_nobody_tests():
    res, log, dice = run(front_pair(), [1] * 20)
    (score,) = events(log, "combat_score")
    # no wounds; each unit 2 ranks: 2 - 2
    assert score["scores"] == {"red": 2, "blue": 2} and score["winner"] is None
    assert events(log, "break_test") == [] and dice.remaining == []


def test_fearless_ignores_the_score_difference():
    res, log, _ = run(front_pair(b_kw={"keywords": ["fearless"]}), A_WINS + [4, 5])
    (bt,) = events(log, "break_test")
    # 4 + 5 = 9 against 7 + 2 - 0 = 9: holds (it would need 5 or less otherwise)
    assert (bt["fearless"], bt["difference"], bt["target"], bt["passed"]) == (True, 0, 9, True)
    assert events(log, "fled") == []


def test_reanimated_units_crumble_d3_wounds_instead():
    res, log, dice = run(front_pair(b_kw={"keywords": ["reanimated"]}), A_WINS + [5])
    (bt,) = events(log, "break_test")
    # a D3 from a D6 face of 5: (5 + 1) // 2 = 3 wounds; no 2D6 is rolled
    assert bt["test"] == "crumble" and bt["wounds"] == 3 and dice.remaining == []
    removed = [e["model"] for e in events(log, "removed")]
    # after b/20, 16, 19, 17: b/18 (the last of rank 4), then rank 3's ends b/15, b/11
    assert removed == ["b/20", "b/16", "b/19", "b/17", "b/18", "b/15", "b/11"]
    assert len(res.state.unit("b").models) == 13 and events(log, "fled") == []


def test_destroyed_when_move_under_1_inch():
    res, log, _ = run(front_pair(b_kw={"profile": {"Move": 0.5}}), A_WINS + [3, 4])
    (d,) = events(log, "destroyed")
    assert d["unit"] == "b" and "less than 1" in d["reason"]
    assert not res.state.has_unit("b")


def test_destroyed_when_it_runs_off_the_table():
    # on a 30" deep table b (y 24..24+4B) would run 4" north to y 28..31.94
    res, log, _ = run(front_pair(depth=30.0), A_WINS + [3, 4])
    (d,) = events(log, "destroyed")
    assert "off the edge" in d["reason"] and not res.state.has_unit("b")


def test_destroyed_when_surrounded():
    # b: blue 5x3 facing 270 on a's front; c: red 5x2 facing 270 on b's rear (y = 24 + 3B)
    state = rnf_map(unit("a", "red", (24, 24), 90, 5, 4),
                    unit("b", "blue", (24, 24), 270, 5, 3),
                    unit("c", "red", (24, 24 + 3 * B), 270, 5, 2))
    # a: [6, 1 x 9] -> 1 hit, b saves [1] -> 1 wound; b and c: 10 dice each, all miss
    res, log, dice = run(state, [6] + [1] * 9 + [1] + [1] * 10 + [1] * 10 + [2, 2])
    (score,) = events(log, "combat_score")
    # red: a 1 wound + 2 ranks; c +1 rear + 1 rank (rank 2 of 5) = 5; blue: b disrupted,
    # no ranks = 0
    assert score["scores"] == {"red": 5, "blue": 0}
    (bt,) = events(log, "break_test")
    # b after losing b/15: ranks of 5, 5, 4 -> 1 rank; 7 + 1 - 5 = 3; 2 + 2 = 4 breaks
    assert (bt["target"], bt["passed"]) == (3, False)
    (d,) = events(log, "destroyed")
    assert d["unit"] == "b" and d["reason"].startswith("surrounded")
    assert dice.remaining == []


def flank_state():
    # b: blue 4 files x 2 ranks facing east, charged, on a's left flank
    return rnf_map(unit("a", "red", (24, 24), 90, 5, 4),
                   unit("b", "blue", (24 - 2.5 * B, 24 - 2 * B), 0, 4, 2, charged=True))


def test_flank_charge_score_and_turn_to_face():
    # a fights with its left flank file: 4 dice [6,6,6,6]; b saves [1,1,1,1]: 4 wounds,
    # b's second rank dies.  b: 4 front + 4 supporting dice, all 1s.
    res, log, dice = run(flank_state(), [6, 6, 6, 6] + [1, 1, 1, 1] + [1] * 8 + [1, 1])
    (score,) = events(log, "combat_score")
    # a: 4 wounds, disrupted so no ranks = 4; b: +1 flank, no second rank = 1
    assert score["scores"] == {"red": 4, "blue": 1}
    ranks = [it for it in score["breakdown"] if it["source"] == "ranks" and it["unit"] == "a"]
    assert ranks[0]["score"] == 0 and "disrupted" in ranks[0]["why"]
    (bt,) = events(log, "break_test")
    assert (bt["target"], bt["passed"]) == (7 + 0 - 3, True)
    # a is left in contact with a single enemy on its flank: it turns to face it
    (turn,) = events(log, "turned_to_face")
    assert (turn["unit"], turn["side"], turn["facing_after"]) == ("a", "left", pytest.approx(180.0))
    from tabletop.geometry import snapshot
    geo = snapshot(res.state)
    assert geo.sides("a").enemy_sides == {"b": "front"} and geo.overlaps == []
    # the first round after the charge is over
    assert res.state.unit("b").charged is False
    assert events(log, "charge_over")[0]["units"] == ["b"]
    assert dice.remaining == []


def test_commander_duel():
    ca = {"role": "commander", "file": 3, "rank": 1,
          "profile": {"Skill": 5, "Power": 4, "Defense": 4, "Attacks": 3, "Wounds": 2, "Discipline": 9}}
    cb = {"role": "commander", "file": 3, "rank": 1,
          "profile": {"Skill": 4, "Power": 4, "Defense": 4, "Attacks": 2, "Wounds": 2, "Discipline": 8}}
    state = rnf_map(unit("a", "red", (24, 24), 90, 5, 1, models=[ca]),
                    unit("b", "blue", (24, 24), 270, 5, 1, models=[cb]))
    faces = ([1, 1, 1, 1]            # a's troops: 4 dice at 4+, no hits
             + [6, 6, 6] + [1, 1, 1]  # a/3 v b/3: Skill 5 > 4 so 3+, 3 hits; b/3 saves 4+, 3 fail
             + [1, 1, 1, 1]          # b's troops: no hits
             + [6, 1] + [2]          # b/3 v a/3: Skill 4 < 5 so 4+, 1 hit; a/3 saves [2]: 1 wound
             + [2, 2])               # b's break test
    res, log, dice = run(state, faces)
    assert events(log, "duel") == [{"commanders": ["a/3", "b/3"]}]
    assert [e["model"] for e in events(log, "removed")] == ["b/3"]
    # the third wound kills nobody else: duel wounds stay in the duel
    assert len(res.state.unit("b").models) == 4
    assert res.state.model("a/3").wounds_lost == 1
    (score,) = events(log, "combat_score")
    assert score["scores"] == {"red": 3, "blue": 1}     # 3 wounds including overkill v 1
    (bt,) = events(log, "break_test")
    # b's commander is dead: its troops' Discipline 7, no ranks, difference 2 -> 5; 4 holds
    assert (bt["discipline"], bt["discipline_from"], bt["target"], bt["passed"]) == (7, "b/1", 5, True)
    assert dice.remaining == []


def test_wounds_carry_over_to_the_commander_and_it_leads_the_break_test():
    cb = {"role": "commander", "file": 2, "rank": 1,
          "profile": {"Attacks": 2, "Wounds": 3, "Discipline": 9}}
    state = rnf_map(unit("a", "red", (24, 24), 90, 2, 1, profile={"Attacks": 3}),
                    unit("b", "blue", (24, 24), 270, 2, 1, models=[cb]))
    faces = ([6, 6, 6, 6, 1, 1] + [1, 1, 1, 6]   # a: 6 dice, 4 hits; b's saves: 3 fail
             + [1] + [1, 1]                      # b/1 (front) and b/2 (commander): no hits
             + [3, 3])                           # b's break test
    res, log, dice = run(state, faces)
    # 3 wounds: b/1 (Wounds 1) dies, 2 carry over to the commander b/2 (Wounds 3)
    assert [e["model"] for e in events(log, "removed")] == ["b/1"]
    assert events(log, "carried_over")[0]["wounds"] == 2
    assert res.state.model("b/2").wounds_lost == 2
    (bt,) = events(log, "break_test")
    # the living commander's Discipline 9, no ranks, difference 3: 6; 3 + 3 = 6 holds
    assert (bt["discipline"], bt["discipline_from"], bt["target"], bt["passed"]) == (9, "b/2", 6, True)
    # written and read back (ids renumber in file order: the commander is now b/1)
    (cmd,) = mapfile.from_dict(mapfile.to_dict(res.state)).unit("b").models
    assert (cmd.role, cmd.wounds_lost) == ("commander", 2)
    assert dice.remaining == []


def test_lethal_strikes_two_wounds_against_multi_wound_models():
    state = rnf_map(unit("a", "red", (24, 24), 90, 1, 1, keywords=["lethal-strikes"]),
                    unit("b", "blue", (24, 24), 270, 1, 1, profile={"Wounds": 2, "Attacks": 0}))
    res, log, dice = run(state, [6, 1])      # one hit, the save fails: 2 wounds
    (blow,) = events(log, "blows")
    assert (blow["lethal"], blow["unsaved"], blow["wounds"]) == (True, 1, 2)
    assert not res.state.has_unit("b") and dice.remaining == []


def test_halberd_save_in_a_round():
    state = rnf_map(unit("a", "red", (24, 24), 90, 1, 1, keywords=["halberd"]),
                    unit("b", "blue", (24, 24), 270, 1, 1, profile={"Defense": 6, "Attacks": 0}))
    res, log, _ = run(state, [6, 3])
    saves = [e for e in events(log, "roll") if e["purpose"].startswith("damage save")]
    # Power 3 v Defense 6 would save on 2+; the halberd makes it 4+, so the 3 fails
    assert saves[0]["target"] == "4+" and saves[0]["result"] == 0
    assert not res.state.has_unit("b")


def test_poisoned_attacks_in_a_round():
    state = rnf_map(unit("a", "red", (24, 24), 90, 1, 1, keywords=["poisoned-attacks"]),
                    unit("b", "blue", (24, 24), 270, 1, 1, profile={"Attacks": 0, "Wounds": 2}))
    # hit [5]; save [6] re-rolled (poisoned) to [2]: fails, 1 wound
    res, log, dice = run(state, [5, 6, 2] + [1, 1])
    assert res.state.model("b/1").wounds_lost == 1 and dice.remaining == []


def test_engagements_are_fought_one_after_another():
    state = rnf_map(unit("a", "red", (12, 24), 90, 5, 4), unit("b", "blue", (12, 24), 270, 5, 4),
                    unit("c", "red", (36, 24), 90, 5, 4), unit("d", "blue", (36, 24), 270, 5, 4))
    res, log, dice = run(state, [1] * 40)
    assert [e["units"] for e in events(log, "engagement")] == [["a", "b"], ["c", "d"]]
    assert len(events(log, "combat_score")) == 2 and dice.remaining == []
    assert [s.title.split(":")[0] for s in log.steps][:2] == ["Engagement 1 of 2 (a v b)"] * 2


CRUMBLE = mapfile.load(str(Path(__file__).parent / "scenarios" / "rnf_crumble_multiwound.toml"))
# a: 10 attack rolls [4,4,4,4,1 x 6] -> 4 hits; b's saves [1,1,1,1] -> 4 wounds.
# b's pool of 4 on Wounds 3 models: b/2 (the right end of its only rank) dies (3), b/1 takes
# the 4th (wounds_lost 1, 2 left).  b has 0 Attacks: no dice.
# Score: red 4 wounds + 2 ranks (ranks 2 and 3 of 5) = 6, blue 0: b loses and crumbles.
CRUMBLE_ROUND = [4, 4, 4, 4, 1, 1, 1, 1, 1, 1] + [1, 1, 1, 1]


def test_crumbling_adds_to_the_wounds_of_the_round():
    # the D3 from a face of 1 is 1: b/1 goes from 1 wound lost to 2 (1 left), not back to 1
    res, log, dice = run(CRUMBLE, CRUMBLE_ROUND + [1])
    assert dice.remaining == []
    assert [e["model"] for e in events(log, "removed")] == ["b/2"]
    hurt = [(e["model"], e["damage"], e["wounds_lost"]) for e in events(log, "wounded")]
    assert hurt == [("b/1", 1, 1), ("b/1", 1, 2)]
    assert res.state.model("b/1").wounds_lost == 2


def test_crumbling_finishes_a_model_wounded_this_round():
    # D3 from a face of 3 is 2: b/1 had 1 wound lost, 1 + 2 = 3 = its Wounds: removed, b is gone
    res, log, dice = run(CRUMBLE, CRUMBLE_ROUND + [3])
    assert [e["model"] for e in events(log, "removed")] == ["b/2", "b/1"]
    (d,) = events(log, "destroyed")
    assert d["unit"] == "b" and d["reason"] == "crumbled away"
    assert not res.state.has_unit("b") and dice.remaining == []


def test_flee_heading_is_straight_back_when_the_enemy_touches_off_centre():
    # b sits 2B to the right of a (front edge centred on (24 + 2B, 24)): a's front x 24-2.5B..
    # 24+2.5B meets b's x 24-0.5B..24+4.5B over 3B.  Both still fight with 5 front + 5
    # supporting dice (a/1, a/2 and b's two outer models attack the nearest enemy), so the
    # dice and the score are as in A_WINS: b loses by 4 and breaks on 3 + 4 = 7 > 5.
    # b is touched on its front only: it runs straight back, 90 (its facing is 270).  The
    # line from a's centroid (24, 24 - 2B) through b's 16 models' (24 + 2B, 24 + 1.625B)
    # would tilt it to atan2(3.625, 2) = 61.1 degrees.
    state = rnf_map(unit("a", "red", (24, 24), 90, 5, 4), unit("b", "blue", (24 + 2 * B, 24), 270, 5, 4))
    res, log, dice = run(state, A_WINS + [3, 4])
    (fled,) = events(log, "fled")
    assert fled["direction"] == pytest.approx(90.0) and dice.remaining == []
    assert fled["away_sides"] == {"front": pytest.approx(3 * B, abs=0.01)}
