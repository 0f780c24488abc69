"""Contact facts of the round and closing back into contact (rank-and-flank-combat.txt
"Engagements": every unit attacks at the same time, casualties come off afterwards, units stay
locked in combat), worked by hand.

Profiles are tests/rnf_maps.py INF unless said (Skill 3, Power 3, Defense 3, Attacks 1,
Wounds 1, Discipline 7, Move 4): every attack roll and every save needs 4+.  Dice order as in
test_rules_rnf_round.py: units in id order, each unit's roll groups (its attack rolls, then the
target's saves), then the losers' break tests.  B = 25/25.4" is one base.
"""

from __future__ import annotations

import pytest
from rnf_maps import B25 as B
from rnf_maps import INF, events, rnf_map, run, unit

from tabletop.geometry import snapshot


def flanker_state(a_kw=None):
    # a: red 5x4 facing 90, front edge y = 24 from x = 24 - 2.5B to 24 + 2.5B, rear y = 24 - 4B.
    # b: blue 2 files x 1 rank facing 0 (east), front edge on a's left flank line x = 24 - 2.5B,
    # spanning y = 24 - 4B - 0.25 .. 24 - 2B - 0.25: it touches a/11 (rank 3) and a/16 (rank 4)
    # and nothing else.  b: Attacks 4.
    return rnf_map(unit("a", "red", (24, 24), 90, 5, 4, **(a_kw or {})),
                   unit("b", "blue", (24 - 2.5 * B, 24 - 3 * B - 0.25), 0, 2, 1,
                        profile={"Attacks": 4}))


# a's left flank file (a/1, a/6, a/11, a/16) attacks b: 4 dice, 1s.  b: 8 dice, seven 6s ->
# 7 hits; a saves seven 1s -> 7 wounds: a/20, a/16, a/19, a/17, a/18 (rank 4, ends inwards,
# right end first), then a/15, a/11 of rank 3: both models b touched are dead.
FLANKER_KILLS = [1] * 4 + [6] * 7 + [1] + [1] * 7


def test_a_flanker_whose_touched_models_all_die_keeps_its_flank_bonus():
    res, log, dice = run(flanker_state(), FLANKER_KILLS + [1, 1])
    removed = [e["model"] for e in events(log, "removed")]
    assert removed == ["a/20", "a/16", "a/19", "a/17", "a/18", "a/15", "a/11"]
    (score,) = events(log, "combat_score")
    # blue: 7 wounds + 1 flank (b was on a's left flank when the blows were struck) = 8;
    # red: a disrupted by that same contact: ranks 0, no wounds = 0.  Blue wins by 8.
    # (Read after the casualties, b touches nothing: no flank, a not disrupted, red 1 rank.)
    assert score["scores"] == {"red": 0, "blue": 8} and score["difference"] == 8
    ranks = [it for it in score["breakdown"] if it["unit"] == "a" and it["source"] == "ranks"]
    assert ranks[0]["score"] == 0 and ranks[0]["why"] == "disrupted: b touches its left flank"
    # a's break test: 7 + 1 rank (ranks 5, 5, 3 left) - 8 = 0; [1, 1] = 2 breaks
    (bt,) = events(log, "break_test")
    assert (bt["ranks"], bt["target"], bt["passed"]) == (1, 0, False)
    assert dice.remaining == []


def test_after_casualties_the_flanker_closes_back_up_flush_along_the_flank():
    # a fearless: 7 + 1 - 0 = 8, [1, 1] holds, so the units stay locked
    res, log, dice = run(flanker_state({"keywords": ["fearless"]}), FLANKER_KILLS + [1, 1])
    (c,) = events(log, "closed_up")
    # a's left flank is now a/1 and a/6 only (rank 3 is a/12..a/14, centred): y = 24 - 2B .. 24
    # on the line x = 24 - 2.5B.  b's front (2B long) is already on that line (0" in) and
    # spans y = 24 - 4B - 0.25 .. 24 - 2B - 0.25: it slides forward (24 - 2B) - (24 - 4B - 0.25)
    # = 2B + 0.25 = 2.2185" to lie flush against a/1 and a/6.
    assert (c["unit"], c["target"], c["side"], c["flush"]) == ("b", "a", "left", True)
    assert c["square"] == pytest.approx(0.0, abs=1e-6)
    assert c["slide"] == pytest.approx(2 * B + 0.25, abs=1e-6)
    assert c["shift"] == pytest.approx([0.0, 2 * B + 0.25], abs=1e-6)
    # b/1 stood at (24 - 3B, 24 - 2.5B - 0.25): now (24 - 3B, 24 - 0.5B); b/2 B behind it
    b1, b2 = res.state.model("b/1"), res.state.model("b/2")
    assert (b1.x, b1.y) == pytest.approx((24 - 3 * B, 24 - 0.5 * B), abs=1e-6)
    assert (b2.x, b2.y) == pytest.approx((24 - 3 * B, 24 - 1.5 * B), abs=1e-6)
    # back in base contact, so a (one enemy, on its flank) turns to face b, which it can only
    # do because the contact was restored
    (turn,) = events(log, "turned_to_face")
    assert (turn["unit"], turn["enemy"], turn["side"]) == ("a", "b", "left")
    geo = snapshot(res.state)
    assert geo.sides("a").enemy_sides == {"b": "front"} and geo.overlaps == []
    assert dice.remaining == []


def test_a_unit_disrupted_by_a_flanker_that_died_gets_no_rank_bonus_that_round():
    # a: red 5x4 facing 90 on (24, 24); x: blue 5x4 facing 270 on it (y 24 .. 24 + 4B);
    # f: red 2x1 facing 180 on x's left flank (x = 24 + 2.5B), spanning y 24 + 2B .. 24 + 4B.
    state = rnf_map(unit("a", "red", (24, 24), 90, 5, 4),
                    unit("x", "blue", (24, 24), 270, 5, 4),
                    unit("f", "red", (24 + 2.5 * B, 24 + 3 * B), 180, 2, 1))
    # a: 5 front + 5 supporting dice, 1s.  f: 2 dice, 1s.  x: x/1..x/5 front + x/7..x/10
    # supporting at a (9 dice, 1s), x/6, x/11, x/16 on its left flank at f: [6, 6, 6] -> 3
    # hits, f saves [1, 1, 1] -> 3 wounds: f/2 and f/1 die (one wound more than needed)
    res, log, dice = run(state, [1] * 10 + [1] * 2 + [1] * 9 + [6, 6, 6] + [1, 1, 1] + [4, 4])
    assert [e["model"] for e in events(log, "removed")] == ["f/2", "f/1"]
    (score,) = events(log, "combat_score")
    # blue: x 3 wounds, disrupted when the blows were struck (f on its flank, two enemy units):
    # ranks 0 -> 3.  red: a 2 ranks (ranks 2 and 3 of 5; only x on its front) = 2; f is gone.
    # (Read after the casualties x would be whole again: 3 + 2 = 5 v 2.)
    assert score["scores"] == {"red": 2, "blue": 3} and score["difference"] == 1
    ranks = {it["unit"]: (it["score"], it.get("why")) for it in score["breakdown"]
             if it["source"] == "ranks"}
    assert ranks["x"] == (0, "disrupted: f touches its left flank; fighting 2 enemy units")
    # a: 7 + 2 - 1 = 8; [4, 4] = 8 holds (it would break at a difference of 3)
    (bt,) = events(log, "break_test")
    assert (bt["unit"], bt["target"], bt["passed"]) == ("a", 8, True)
    assert events(log, "closed_up") == [] and dice.remaining == []


def surrounded_state(*more):
    # a: red 5x4 facing 90 on (24, 24); b: blue 5x3 facing 270 on a's front (y 24 .. 24 + 3B);
    # c: red 5x2 facing 270 with its front on b's rear rank (y = 24 + 3B)
    return rnf_map(unit("a", "red", (24, 24), 90, 5, 4),
                   unit("b", "blue", (24, 24), 270, 5, 3),
                   unit("c", "red", (24, 24 + 3 * B), 270, 5, 2), *more)


# a: 10 dice, five 6s -> 5 hits; b saves five 1s -> 5 wounds: b's whole rear rank (b/15, b/11,
# b/14, b/12, b/13), every model c touched.  b: 5 front + 5 supporting dice at a, 1s.
# c: 5 front + 5 supporting dice at b, 1s.
B_LOSES_REAR = [6] * 5 + [1] * 5 + [1] * 5 + [1] * 10 + [1] * 10


def test_surrounded_when_the_blows_were_struck_is_destroyed_not_fled():
    res, log, dice = run(surrounded_state(), B_LOSES_REAR + [2, 2])
    (score,) = events(log, "combat_score")
    # red: a 5 wounds + 2 ranks; c +1 rear + 1 rank (rank 2 of 5, not disrupted) = 9; blue 0
    assert score["scores"] == {"red": 9, "blue": 0}
    # b: 7 + 1 rank (5 x 2 left) - 9 = -1; [2, 2] breaks; a in front and c behind when the
    # blows were struck: destroyed, though c's touched rank is dead
    (bt,) = events(log, "break_test")
    assert (bt["target"], bt["passed"]) == (-1, False)
    (d,) = events(log, "destroyed")
    assert d["unit"] == "b" and d["reason"].startswith("surrounded")
    assert events(log, "fled") == [] and dice.remaining == []
    # c closed back up square to b's new rear (y = 24 + 2B): 1B forward, no slide
    (c,) = events(log, "closed_up")
    assert (c["unit"], c["side"]) == ("c", "rear")
    assert c["shift"] == pytest.approx([0.0, -B], abs=1e-6) and c["slide"] == pytest.approx(0.0)


def test_a_close_up_that_would_leave_another_contact_is_blocked_and_surrounded_still_holds():
    # d: blue 5x1 facing 270 with its front on c's rear (y = 24 + 5B): c cannot move up to b
    # without leaving d.  d attacks c's rear: 5 dice, 1s (c's models make no attacks at d).
    state = surrounded_state(unit("d", "blue", (24, 24 + 5 * B), 270, 5, 1))
    res, log, dice = run(state, B_LOSES_REAR + [1] * 5 + [2, 2] + [2, 2])
    (blocked,) = events(log, "close_up_blocked")
    assert (blocked["unit"], blocked["target"], blocked["side"]) == ("c", "b", "rear")
    assert blocked["reason"] == "it would leave base contact with d"
    assert events(log, "closed_up") == []
    (score,) = events(log, "combat_score")
    # red: a 5 + 2 ranks; c +1 rear on b, disrupted by d: no ranks = 8.  blue: d +1 rear on c,
    # one rank deep = 1.  red wins by 7.
    assert score["scores"] == {"red": 8, "blue": 1}
    # b: 7 + 1 - 7 = 1, [2, 2] breaks: surrounded at blow time -> destroyed, though c no
    # longer touches it; d: 7 + 0 - 7 = 0, [2, 2] breaks and flees (only c touched it)
    destroyed = {e["unit"]: e["reason"] for e in events(log, "destroyed")}
    assert destroyed["b"].startswith("surrounded")
    assert [e["unit"] for e in events(log, "fled")] == ["d"]
    assert dice.remaining == []


def test_close_up_square_option_moves_square_in_only():
    # [rules] close_up = "square": b's front is already on a's flank line (0" in) and may not
    # slide, so it cannot reach a/1 or a/6 (its front stops 0.25" short of a's rank 2)
    state = rnf_map(unit("a", "red", (24, 24), 90, 5, 4, keywords=["fearless"]),
                    unit("b", "blue", (24 - 2.5 * B, 24 - 3 * B - 0.25), 0, 2, 1,
                         profile={"Attacks": 4}), rules={"close_up": "square"})
    res, log, dice = run(state, FLANKER_KILLS + [1, 1])
    (blocked,) = events(log, "close_up_blocked")
    assert blocked["reason"] == "it would not reach a's left" and events(log, "closed_up") == []
    # the score still reads the contacts of the round: blue 7 + 1 flank, red 0 (disrupted)
    (score,) = events(log, "combat_score")
    assert score["scores"] == {"red": 0, "blue": 8} and dice.remaining == []


def test_a_unit_given_model_by_model_closes_back_up_too():
    # The flanker above, but b written model by model (at and facing each, no formation and no
    # unit facing), as a map may give it: it used to crash closing up (the unit had no facing
    # to keep).  Same table, same dice, so the same close-up: b/1 at (24 - 3B, 24 - 2.5B - 0.25)
    # and b/2 B south of it, both facing 0 (east), front edge on x = 24 - 2.5B; it slides
    # north 2B + 0.25 = 2.2185" to lie flush against a/1 and a/6 and keeps facing 0.
    b_models = [{"at": [24 - 3 * B, 24 - 2.5 * B - 0.25], "facing": 0},
                {"at": [24 - 3 * B, 24 - 3.5 * B - 0.25], "facing": 0}]
    b = {"id": "b", "player": "blue", "base": "25x25mm", "profile": dict(INF, Attacks=4),
         "models": b_models}
    state = rnf_map(unit("a", "red", (24, 24), 90, 5, 4, keywords=["fearless"]), b)
    assert state.unit("b").facing_deg is None
    res, log, dice = run(state, FLANKER_KILLS + [1, 1])
    (c,) = events(log, "closed_up")
    assert (c["unit"], c["target"], c["side"], c["flush"]) == ("b", "a", "left", True)
    assert c["shift"] == pytest.approx([0.0, 2 * B + 0.25], abs=1e-6)
    b1, b2 = res.state.model("b/1"), res.state.model("b/2")
    assert (b1.x, b1.y) == pytest.approx((24 - 3 * B, 24 - 0.5 * B), abs=1e-6)
    assert (b2.x, b2.y) == pytest.approx((24 - 3 * B, 24 - 1.5 * B), abs=1e-6)
    assert b1.facing_deg == pytest.approx(0.0) and res.state.unit("b").facing_deg == pytest.approx(0.0)
    assert dice.remaining == []
