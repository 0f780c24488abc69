"""Combat score sources, rank sizes and attack keywords in whole rounds, worked by hand.

rank-and-flank-combat.txt "Combat score" (ranks, banners), "Charge bonuses", "Attack
roll".  Profiles are tests/rnf_maps.py INF unless said (Skill 3, Power 3, Defense 3,
Attacks 1, Wounds 1, Discipline 7); dice order as in test_rules_rnf_round.py: units in
id order, each unit's attack rolls then the target's saves, then break tests.
"""

from __future__ import annotations

import pytest
from rnf_maps import events, rnf_map, run, unit

from tabletop.rules.rank_and_flank import profiles as P


def items(log, source):
    (score,) = events(log, "combat_score")
    return {it["unit"]: (it["score"], it.get("why", "")) for it in score["breakdown"]
            if it["source"] == source}


def pair(a_kw=None, b_kw=None, files=5, ranks=1, **map_kw):
    """a: red files x ranks facing 90 on (24, 24); b: blue, the same, facing 270 on it."""
    return rnf_map(unit("a", "red", (24, 24), 90, files, ranks, **(a_kw or {})),
                   unit("b", "blue", (24, 24), 270, files, ranks, **(b_kw or {})), **map_kw)


STANDARD = {"role": "standard", "file": 5, "rank": 1}


def test_war_banner_and_standard_bearer_each_add_one():
    # one rank each (no rank bonus); every die a 1: no wounds.  red: war banner +1;
    # blue: a living standard bearer (b/5) +1: 1 - 1, a tie
    res, log, dice = run(pair({"keywords": ["war-banner"]}, {"models": [STANDARD]}), [1] * 10)
    assert items(log, "war banner") == {"a": (P.WAR_BANNER_SCORE, "")}
    assert items(log, "standard") == {"b": (P.STANDARD_SCORE, "")}
    (score,) = events(log, "combat_score")
    assert score["scores"] == {"red": 1, "blue": 1} and score["winner"] is None
    assert dice.remaining == []


def test_a_dead_standard_bearer_scores_nothing():
    # a: [6, 1, 1, 1, 1] -> 1 hit; b saves [1]: 1 wound; b's casualty comes off the right end
    # of its only rank: b/5, the standard bearer.  b: 5 dice, 1s.
    # red: 1 wound + war banner 1 = 2; blue: 0 (the standard is dead): red wins by 2;
    # b's break test: 7 + 0 ranks - 2 = 5, [2, 2] = 4 holds
    res, log, dice = run(pair({"keywords": ["war-banner"]}, {"models": [STANDARD]}),
                         [6, 1, 1, 1, 1] + [1] + [1] * 5 + [2, 2])
    assert [e["model"] for e in events(log, "removed")] == ["b/5"]
    assert items(log, "standard") == {}
    (score,) = events(log, "combat_score")
    assert score["scores"] == {"red": 2, "blue": 0} and dice.remaining == []


# 4 wide x 3 deep each: 4 front + 4 supporting dice a side, all 1s: no wounds
MISS_4X3 = [1] * 16


def test_a_narrow_unit_scores_no_ranks_and_the_breakdown_says_why():
    # ranks of 4 do not count (5 regular infantry make a rank): ranks +0 with the reason
    res, log, _ = run(pair(files=4, ranks=3), MISS_4X3)
    assert items(log, "ranks") == {"a": (0, "4 wide: a rank needs 5 models"),
                                   "b": (0, "4 wide: a rank needs 5 models")}


def test_one_rank_deep_or_a_short_second_rank_scores_no_ranks_and_says_why():
    # a: 5 x 1: no rank behind the front; b: 5 x 2 with 8 models: rank 2 holds 3
    state = rnf_map(unit("a", "red", (24, 24), 90, 5, 1),
                    unit("b", "blue", (24, 24), 270, 5, 2, count=8))
    res, log, _ = run(state, [1] * 5 + [1] * 8)
    assert items(log, "ranks") == {"a": (0, "one rank deep: no rank behind the front"),
                                   "b": (0, "rank 2 holds 3: a rank needs 5 models")}


def test_rank_min_models_override():
    # [rules] rank_min_models = 4: the ranks 2 and 3 of 4 count: 2 each, a tie 2 - 2
    res, log, _ = run(pair(files=4, ranks=3, rules={"rank_min_models": 4}), MISS_4X3)
    assert items(log, "ranks") == {"a": (2, "2 ranks of 4+ behind the front"),
                                   "b": (2, "2 ranks of 4+ behind the front")}


@pytest.mark.parametrize("keyword, files, ranks", [
    ("heavy-infantry", 4, 3),          # ranks of 4 count (RANK_MODELS)
    ("monstrous-infantry", 3, 3),      # ranks of 3 count
])
def test_troop_type_rank_sizes(keyword, files, ranks):
    # red has the troop type, blue does not: red 2 ranks, blue 0: red wins by 2;
    # b's break test with ranks 0: 7 + 0 - 2 = 5, [2, 2] holds
    dice = [1] * (4 * files) + [2, 2]
    res, log, left = run(pair({"keywords": [keyword]}, None, files=files, ranks=ranks), dice)
    n = P.RANK_MODELS[keyword]
    assert items(log, "ranks") == {"a": (2, f"2 ranks of {n}+ behind the front"),
                                   "b": (0, f"{files} wide: a rank needs 5 models")}
    (bt,) = events(log, "break_test")
    assert (bt["ranks"], bt["target"]) == (0, 5) and left.remaining == []


def test_the_map_rank_size_beats_the_troop_type():
    # rank_min_models = 5 written in the map: heavy infantry 4 wide no longer count ranks
    res, log, _ = run(pair({"keywords": ["heavy-infantry"]}, None, files=4, ranks=3,
                           rules={"rank_min_models": 5}), MISS_4X3)
    assert items(log, "ranks")["a"] == (0, "4 wide: a rank needs 5 models")


def saves_of(log, unit_id):
    return [b["save"] for b in events(log, "blows") if b["unit"] == unit_id]


def test_lance_power_only_in_the_first_round_of_its_own_charge():
    # a: 3 wide x 1 lance cavalry (30x60mm) that charged, b: 3 x 1 infantry of Defense 2.
    # First round: Power 3 + LANCE_CHARGE_POWER 2 = 5 against Defense 2: 3 higher -> 6+.
    # b did not charge: Power 3 against a's Defense 3 -> 4+.
    lance = {"base": "30x60mm", "keywords": ["cavalry", "lance"], "charged": True}
    state = rnf_map(unit("a", "red", (24, 24), 90, 3, 1, **lance),
                    unit("b", "blue", (24, 24), 270, 3, 1, profile={"Defense": 2}))
    res, log, dice = run(state, [1] * 3 + [1] * 3)
    assert saves_of(log, "a") == ["6+"] and saves_of(log, "b") == ["4+"]
    # the next round: no charge bonus, Power 3 against Defense 2: 1 higher -> 5+
    res2, log2, _ = run(res.state, [1] * 6)
    assert saves_of(log2, "a") == ["5+"]


def test_charge_power_keyword():
    # charge-power+3 on a unit that charged: Power 6 against Defense 3 -> 6+; uncharged 4+
    kw = {"keywords": ["charge-power+3"]}
    res, log, _ = run(pair(dict(kw, charged=True)), [1] * 10)
    assert saves_of(log, "a") == ["6+"]
    res, log, _ = run(pair(kw), [1] * 10)
    assert saves_of(log, "a") == ["4+"]


def hits_of(log, unit_id):
    return [(b["to_hit"], b["hits"]) for b in events(log, "blows") if b["unit"] == unit_id]


def test_to_hit_plus_one_in_a_round():
    # Skill 3 against 3: 4+, to-hit+1 makes it 3+: [3, 3, 3, 2, 1] -> 3 hits; b saves [1, 1, 1]:
    # 3 wounds.  b: 5 dice, 1s.  red 3 - blue 0: b tests 7 - 3 = 4, [2, 2] holds
    res, log, dice = run(pair({"keywords": ["to-hit+1"]}), [3, 3, 3, 2, 1] + [1, 1, 1] + [1] * 5
                         + [2, 2])
    assert hits_of(log, "a") == [("3+", 3)] and dice.remaining == []
    assert len(events(log, "removed")) == 3


def test_hard_to_hit_and_the_2_plus_and_6_plus_limits_in_a_round():
    # a: Skill 4 > 3: 3+; to-hit+3 would make it 0+: never better than 2+.
    # b: Skill 3 < 4: 4+; a is hard-to-hit (-1) and b has to-hit-3: 8+: never worse than 6+.
    a_kw = {"keywords": ["to-hit+3", "hard-to-hit"], "profile": {"Skill": 4}}
    b_kw = {"keywords": ["to-hit-3"]}
    # a: [2, 2, 1, 1, 1] -> 2 hits at 2+; b saves [6, 6]: none fail.
    # b: 6+: [6, 5, 5, 5, 5] -> 1 hit; a saves [6]
    res, log, dice = run(pair(a_kw, b_kw), [2, 2, 1, 1, 1] + [6, 6] + [6, 5, 5, 5, 5] + [6])
    assert hits_of(log, "a") == [("2+", 2)] and hits_of(log, "b") == [("6+", 1)]
    assert dice.remaining == []
