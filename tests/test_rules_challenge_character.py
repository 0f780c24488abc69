"""Character challenges in a rank-and-flank round (character-challenge.txt ¶1-¶7), from the table.

Formations of 25x25mm bases (0.98425" a side).  Red Spearmen: 5 files x 2 ranks facing north
(90), front centre (24, 16): front rank centres y = 16 - 0.492 = 15.508, files from the unit's
left (west) x = 22.031, 23.016, 24.0, 24.984, 25.969; the Captain is file 2 (spears/2).
Blue Swordsmen: 5 x 2 facing south (270), front centre (24, 16): front rank y = 16.492, files
from ITS left (east) x = 25.969, 24.984, 24.0, 23.016, 22.031; the Champion is file 2
(swords/2, x = 24.984); its rank 2 is y = 17.476.
"""

from __future__ import annotations

import pytest
from challengekit import battlefield, events, harness, unit

from tabletop.board.state import Decision
from tabletop.geometry import snapshot
from tabletop.rules.challenges.character import (
    can_refuse,
    challenge_step,
    clear_finished,
    lends_discipline,
    may_accept,
    replaces_commander_duel,
    resolve_blows,
)
from tabletop.rules.challenges.character_duel import duel, duel_score, fighters
from tabletop.rules.decisions import Decisions
from tabletop.rules.dice import Dice, FixedDice
from tabletop.rules.events import EventLog
from tabletop.rules.registry import find_ruleset

S = 25 / 25.4
TROOP = {"Move": 4, "Skill": 3, "Power": 3, "Defense": 3, "Attacks": 1, "Wounds": 1, "Discipline": 7}
CAPTAIN = {"Skill": 5, "Power": 4, "Defense": 4, "Attacks": 3, "Wounds": 2, "Discipline": 9}
CHAMPION = {"Skill": 4, "Power": 4, "Defense": 3, "Attacks": 2, "Wounds": 1, "Discipline": 8}


def formation_unit(uid, player, centre, facing, files, ranks, chars=(), keywords=None):
    models = [{"file": f, "rank": r, "role": role, "profile": prof, **extra} for f, r, role, prof, extra in chars]
    return unit(uid, player, models, base="25x25mm", profile=TROOP, weapons=[],
                formation={"front_centre": list(centre), "facing": facing, "files": files, "ranks": ranks},
                keywords=keywords)


def spears(**kw):
    return formation_unit("spears", "red", (24, 16), 90, 5, 2, [(2, 1, "commander", CAPTAIN, {})], **kw)


def swords(files=5, ranks=2, centre=(24, 16), chars=None):
    chars = chars if chars is not None else [(2, 1, "champion", CHAMPION, {})]
    return formation_unit("swords", "blue", centre, 270, files, ranks, chars)


def rnf(*units, decisions=None):
    return battlefield(list(units), ruleset="rank-and-flank", challenges="character", decisions=decisions)


COMBAT = ("spears", "swords")


# ---------------------------------------------------------------- who may accept (¶2)
def test_accepting_needs_the_units_in_base_contact():
    s = rnf(spears(), swords())
    assert may_accept(s, snapshot(s), COMBAT, "spears/2") == ["swords/2"]


def test_a_character_whose_unit_does_not_touch_the_challengers_unit_cannot_accept():
    # red: spears (x 21.54..26.46) and a Guard 3x1 at (34, 16) (x 32.52..35.48);
    # blue: a 10-file Swordsmen at (29, 16) (x 24.08..33.92) touching both red units, with its
    # champion in file 1; a blue Hero unit 3x1 at (36.5, 16) (x 35.02..37.98) touching only the Guard.
    guard = formation_unit("guard", "red", (34, 16), 90, 3, 1)
    wide = swords(files=10, ranks=1, centre=(29, 16), chars=[(1, 1, "champion", CHAMPION, {})])
    hero = formation_unit("hero", "blue", (36.5, 16), 270, 3, 1, [(2, 1, "champion", CHAMPION, {})])
    s = rnf(spears(), guard, wide, hero)
    g = snapshot(s)
    (combat,) = g.engagements
    assert set(combat) == {"spears", "guard", "swords", "hero"}
    assert may_accept(s, g, combat, "spears/2") == ["swords/1"]
    # hero/2's own unit (hero) touches only the Guard: it cannot accept; swords/1 can, or blue refuses
    # (the 10-file line's middle files touch nobody, so swords/1 can step back).  The answer after
    # the override comes from a policy that takes the first option offered.
    offered = []

    def first(player, choice, options, default, context):
        offered.append((choice, list(options)))
        return options[0] if choice == "accept_challenge" else default

    log = EventLog()
    dec = Decisions([Decision("red", "issue_challenge", "spears/2"), Decision("blue", "accept_challenge", "hero/2")],
                    log, policy=first)
    _, ch = challenge_step(s, combat, FixedDice([], log), dec, log)
    (ov,) = events(log, "decision_overridden")
    assert ov["value"] == "hero/2"
    assert ov["reason"] == "'hero/2' cannot accept: its unit is not in base contact with spears/2's unit (¶2)"
    assert ("accept_challenge", ["swords/1", "refuse"]) in offered
    assert ch.challenged == "swords/1"


@pytest.mark.parametrize("value, reason", [
    ("swords/3", "'swords/3' is blue's model, not one of red's"),
    ("spears/1", "'spears/1' is not a character (a commander, a champion or a Paragon)"),
    ("spears/99", "'spears/99' is no model on the table"),
    ("nobody", "'nobody' is no model on the table"),
    ("guard/2", "'guard/2''s unit guard is not in this combat (spears, swords)"),
])
def test_each_refused_accept_names_its_own_reason(value, reason):
    # blue's Champion (swords/2) challenges; red answers with something that cannot accept.  A red
    # Guard with a champion stands apart (x 10, not touching anything): not in this combat.
    guard = formation_unit("guard", "red", (10, 16), 90, 3, 1, [(2, 1, "champion", CHAMPION, {})])
    s = rnf(spears(), swords(), guard)
    log, dice, dec = harness(s, [], [("red", "issue_challenge", "none"), ("blue", "issue_challenge", "swords/2"),
                                     ("red", "accept_challenge", value)])
    _, ch = challenge_step(s, COMBAT, dice, dec, log)
    (ov,) = events(log, "decision_overridden")
    assert (ov["player"], ov["choice"], ov["reason"]) == ("red", "accept_challenge", reason)
    assert ch.issuer == "blue" and ch.challenger == "swords/2"


def test_the_other_player_issues_after_the_player_whose_turn_it_is_declines():
    # ¶1: red (whose turn it is) is asked first and declines; then blue issues
    s = rnf(spears(), swords())
    log, dice, dec = harness(s, [], [("blue", "issue_challenge", "swords/2"), ("red", "issue_challenge", "none"),
                                     ("red", "accept_challenge", "spears/2")])
    _, ch = challenge_step(s, COMBAT, dice, dec, log)
    assert (ch.issuer, ch.challenger, ch.challenged) == ("blue", "swords/2", "spears/2")
    assert dec.used == {0, 1, 2}                    # red's "none" was asked for and used
    assert events(log, "challenge_issued")[0]["player"] == "blue"


# ---------------------------------------------------------------- accepted (¶5)
def test_accepted_challenge_moves_both_into_base_contact():
    s = rnf(spears(), swords())
    log, dice, dec = harness(s, [], [("red", "issue_challenge", "spears/2"),
                                     ("blue", "accept_challenge", "swords/2")])
    after, ch = challenge_step(s, COMBAT, dice, dec, log)
    assert (ch.challenger, ch.challenged, ch.treated_in_contact) == ("spears/2", "swords/2", False)
    # face to face, shortest move, then by id: the Champion trades places with swords/4,
    # the blue model opposite the Captain (x = 24 - 0.984 = 23.016)
    assert ch.moves == {"swords/2": "swords/4"}
    assert after.model("swords/2").at == pytest.approx((24 - S, 16 + S / 2))
    assert after.model("swords/4").at == pytest.approx((24 + S, 16 + S / 2))
    assert after.model("spears/2").at == s.model("spears/2").at
    assert snapshot(after).in_base_contact("spears/2", "swords/2")
    assert events(log, "challenge_issued")[0]["player"] == "red"
    # their attacks go at each other; nobody else attacks them; breath weapons still hit the unit
    assert ch.may_attack("spears/2", "swords/2") and not ch.may_attack("spears/2", "swords/1")
    assert not ch.may_attack("spears/1", "swords/2")
    assert ch.may_attack("spears/2", "swords/1", "breath weapon")
    assert not ch.directs_at_duel("swords/2", "stomp") and ch.directs_at_duel("swords/2")


def test_treated_as_in_base_contact_when_the_table_does_not_allow_it():
    # blue: Swordsmen 5 x 1 (front rank y 16.492, back edge 16.984) and its Champion on a 50x50mm
    # base (1.9685") behind the middle file at (24, 16.984 + 0.984) = (24, 17.968): its unit touches
    # the Spearmen, it touches nobody red.  Every spot touching a red model is a 25mm slot of the front
    # rank: the Champion there would span y 15.508..17.476 and overlap the Spearmen's front rank
    # (up to y 16.0) - so no swap puts the two in base contact (¶5: treat them as in contact).
    line = formation_unit("swords", "blue", (24, 16), 270, 5, 1)
    line["models"] = [{"at": [x, 16 + S / 2]} for x in (25.969, 24.984, 24.0, 23.016, 22.031)]
    line["models"].append({"at": [24.0, 16 + S + 25 * 2 / 25.4 / 2], "base": "50x50mm", "role": "champion",
                           "profile": CHAMPION})
    del line["formation"]
    line["facing"] = 270
    s = rnf(spears(), line)
    g = snapshot(s)
    assert g.contacts_of("swords/6") == [] and g.overlaps == []            # touches no enemy
    assert may_accept(s, g, COMBAT, "spears/2") == ["swords/6"]
    log, dice, dec = harness(s, [], [("red", "issue_challenge", "spears/2"), ("blue", "accept_challenge", "swords/6")])
    after, ch = challenge_step(s, COMBAT, dice, dec, log)
    assert (ch.challenged, ch.treated_in_contact, ch.moves) == ("swords/6", True, {})
    (ev,) = events(log, "challenge_contact")
    assert ev["treated_in_contact"] is True and ev["moved"] == {}
    assert after.model("spears/2").at == s.model("spears/2").at           # nobody moved
    assert after.model("swords/6").at == s.model("swords/6").at
    assert after.model("spears/2").status == ("challenge:swords/6",)
    assert ch.may_attack("spears/2", "swords/6") and not ch.may_attack("spears/1", "swords/6")


# ---------------------------------------------------------------- refused (¶3, ¶4)
def test_refusal_retires_the_nominee_out_of_base_contact():
    s = rnf(spears(), swords())
    log, dice, dec = harness(s, [], [("red", "issue_challenge", "spears/2"),
                                     ("blue", "accept_challenge", "refuse"), ("red", "disgrace", "swords/2")])
    after, ch = challenge_step(s, COMBAT, dice, dec, log)
    # swords/7 (rank 2, file 2, right behind) steps into its place; the Champion goes to (24.984, 17.476)
    assert (ch.disgraced, ch.swapped_with) == ("swords/2", "swords/7")
    assert after.model("swords/2").at == pytest.approx((24 + S, 16 + 1.5 * S))
    assert after.model("swords/7").at == pytest.approx((24 + S, 16 + S / 2))
    assert snapshot(after).contacts_of("swords/2") == []
    assert after.model("swords/2").status == ("disgraced",)
    assert not lends_discipline(after.model("swords/2"))
    assert ch.no_attack() == {"swords/2"} and not ch.may_attack("swords/2", "spears/1")
    assert ch.may_attack("spears/2", "swords/7")             # the challenger fights normally
    assert events(log, "challenge_refused")[0]["disgraced"] == "swords/2"


def test_only_those_who_could_have_accepted_may_be_disgraced():
    s = rnf(spears(), swords())
    log, dice, dec = harness(s, [], [("red", "issue_challenge", "spears/2"),
                                     ("blue", "accept_challenge", "refuse"), ("red", "disgrace", "swords/3")])
    _, ch = challenge_step(s, COMBAT, dice, dec, log)
    (ov,) = events(log, "decision_overridden")
    assert ov["choice"] == "disgrace" and "could not have accepted" in ov["reason"]
    assert ch.disgraced == "swords/2"


def test_a_lone_character_cannot_refuse():
    hero = formation_unit("hero", "blue", (23.016, 16), 270, 1, 1, [(1, 1, "champion", CHAMPION, {})])
    s = rnf(spears(), hero)
    g = snapshot(s)
    assert not can_refuse(s, g, "hero/1")
    log, dice, dec = harness(s, [], [("red", "issue_challenge", "spears/2"), ("blue", "accept_challenge", "refuse")])
    _, ch = challenge_step(s, ("spears", "hero"), dice, dec, log)
    (ov,) = events(log, "decision_overridden")
    assert "cannot refuse" in ov["reason"]
    assert ch.challenged == "hero/1" and ch.disgraced is None


def test_a_small_unit_all_in_contact_cannot_refuse():
    # 2 files x 1 rank at (24, 16): both models touch the Spearmen's front
    pair = swords(files=2, ranks=1, chars=[(1, 1, "champion", CHAMPION, {})])
    s = rnf(spears(), pair)
    assert not can_refuse(s, snapshot(s), "swords/1")


def test_a_nominee_stuck_in_contact_fights_instead():
    # blue: Swordsmen 5x2 with its Champion (can step back) and a lone Hero facing west against the
    # Spearmen's right flank: its front edge on x = 24 + 2.5 * 0.984 = 26.461, y 14.51..15.49
    hero = formation_unit("hero", "blue", (24 + 2.5 * S, 15.0), 180, 1, 1, [(1, 1, "champion", CHAMPION, {})])
    s = rnf(spears(), swords(), hero)
    g = snapshot(s)
    combat = tuple(g.engagements[0])
    assert sorted(may_accept(s, g, combat, "spears/2")) == ["hero/1", "swords/2"]
    log, dice, dec = harness(s, [], [("red", "issue_challenge", "spears/2"),
                                     ("blue", "accept_challenge", "refuse"), ("red", "disgrace", "hero/1")])
    _, ch = challenge_step(s, combat, dice, dec, log)
    assert events(log, "cannot_refuse")[0]["model"] == "hero/1"
    assert (ch.challenged, ch.forced, ch.disgraced) == ("hero/1", True, None)


# ---------------------------------------------------------------- blows, overkill (¶6)
@pytest.mark.parametrize("inflicted, left, expected", [
    (1, 2, (1, 0, 0)),     # not dead: the wounds count
    (4, 2, (4, 2, 2)),     # dead: 2 to kill + 2 overkill
    (7, 2, (5, 3, 5)),     # overkill capped at +3
])
def test_overkill_counts_up_to_three(inflicted, left, expected):
    assert duel_score(inflicted, left) == expected


def test_killing_blows_score_the_victims_wounds_each():
    kb = dict(CAPTAIN, Attacks=3)
    s = rnf(formation_unit("spears", "red", (24, 16), 90, 5, 2, [(2, 1, "commander", kb, {"keywords": ["killing-blow"]})]),
            swords(chars=[(2, 1, "champion", dict(CHAMPION, Wounds=2), {})]))
    fa, fb = fighters(s, "spears/2", "swords/2")
    # 3 attacks, all natural 6s: 3 Killing Blows x the Champion's Wounds 2 = 6, no save rolled;
    # the Champion's 2 attacks (4+) [1, 1] miss
    dice = FixedDice([6, 6, 6, 1, 1])
    res = duel(dice, fa, fb)
    assert dice.remaining == []
    assert (res.blows["spears/2"].killing_blows, res.blows["spears/2"].inflicted) == (3, 6)
    assert res.score["red"] == 5 and res.overkill["red"] == 3          # 2 + min(6 - 2, 3)
    assert res.removed == ["swords/2"]


def test_blows_use_the_rank_and_flank_tables():
    s = rnf(spears(), swords())
    fa, fb = fighters(s, "spears/2", "swords/2")
    # Captain Skill 5 v 4: 3+; Power 4 v Defense 3: saves on 5+.  Champion Skill 4 v 5: 4+;
    # Power 4 v Defense 4: 4+
    assert (fa.hit.target, fa.save.target, fb.hit.target, fb.save.target) == (3, 5, 4, 4)


def test_challenge_result_and_overkill_through_resolve_blows():
    s = rnf(spears(), swords())
    # Captain: 3 attacks at 3+ -> [6, 6, 6]; Champion's saves 5+ -> [1, 1, 1]: 3 wounds on 1 Wound:
    # 1 + overkill 2 = 3.  Champion, at the same time: 2 attacks at 4+ -> [1, 1] no hits.
    log, dice, _ = harness(s, [6, 6, 6, 1, 1, 1, 1, 1])
    res = resolve_blows(s, ("spears/2", "swords/2"), dice, log)
    assert dice.remaining == []
    assert res.removed == ["swords/2"] and res.score == {"red": 3, "blue": 0}
    (r,) = events(log, "challenge_result")
    assert (r["winner"], r["points"], r["overkill"], r["removed"]) == ("red", 3, 2, ["swords/2"])


# ---------------------------------------------------------------- in the rank-and-flank round
def test_the_round_fights_the_challenge_and_scores_it():
    s = rnf(spears(), swords(), decisions=[("red", "issue_challenge", "spears/2"),
                                           ("blue", "accept_challenge", "swords/2")])
    log = EventLog()
    res = find_ruleset("rank-and-flank").fight(s, Dice(5, log), Decisions(s.decisions, log), log)
    attackers = [a["model"] for e in events(log, "attackers") for a in e["attacks"]]
    assert "spears/2" not in attackers and "swords/2" not in attackers     # they fight each other only
    (r,) = events(log, "challenge_result")
    (score,) = events(log, "combat_score")
    items = [i for i in score["breakdown"] if i["source"] == "challenge"]
    assert sum(i["score"] for i in items) == sum(r["scores"].values())
    # the duellists took no wound from the units' pools: only the challenge's
    lost = {e["model"] for e in events(log, "removed")} | {e["model"] for e in events(log, "wounded")}
    for m in ("spears/2", "swords/2"):
        assert (m in lost) == (r["inflicted"][("swords/2" if m == "spears/2" else "spears/2")] > 0)
    if not r["removed"]:
        assert res.state.model("spears/2").status == ("challenge:swords/2",)


def test_commanders_do_not_duel_automatically_when_challenges_are_on():
    boss = formation_unit("swords", "blue", (24, 16), 270, 5, 2, [(2, 1, "commander", CHAMPION, {})])
    s = rnf(spears(), boss, decisions=[("red", "issue_challenge", "none"), ("blue", "issue_challenge", "none")])
    log = EventLog()
    find_ruleset("rank-and-flank").fight(s, Dice(1, log), Decisions(s.decisions, log), log)
    assert not events(log, "duel")
    kinds = {a["model"]: a["kind"] for e in events(log, "attackers") for a in e["attacks"]}
    assert kinds.get("spears/2") == "commander"


# ---------------------------------------------------------------- continuing (¶7)
def test_a_challenge_both_survive_continues_and_blocks_new_ones():
    s = rnf(spears(), swords())
    log, dice, dec = harness(s, [1, 1, 1, 1, 1], [("red", "issue_challenge", "spears/2"),
                                                ("blue", "accept_challenge", "swords/2")])
    after, ch = challenge_step(s, COMBAT, dice, dec, log)
    assert after.model("spears/2").status == ("challenge:swords/2",)
    res = resolve_blows(after, ("spears/2", "swords/2"), dice, log)      # everything misses
    assert res.removed == []
    after = clear_finished(after, COMBAT, log)
    assert after.model("swords/2").status == ("challenge:spears/2",)
    log2, dice2, dec2 = harness(after, [], [("red", "issue_challenge", "none")])
    again, ch2 = challenge_step(after, COMBAT, dice2, dec2, log2)
    assert (ch2.challenger, ch2.challenged, ch2.continuing) == ("spears/2", "swords/2", True)
    assert events(log2, "challenge_continues") and not events(log2, "challenge_issued")
    assert dec2.used == set()                                 # nobody was asked to issue one
    # once one of them is gone the challenge is over
    done = clear_finished(after.without_models(["swords/2"]), COMBAT)
    assert done.model("spears/2").status == ()


def test_character_challenges_replace_the_commander_duel():
    assert replaces_commander_duel(rnf(spears(), swords()))
    assert not replaces_commander_duel(battlefield([spears(), swords()], ruleset="rank-and-flank",
                                                   challenges=None))


def test_a_commander_who_retired_in_disgrace_lends_no_discipline():
    from tabletop.rules.rank_and_flank.breaks import discipline_of
    boss = formation_unit("swords", "blue", (24, 16), 270, 5, 2, [(2, 1, "commander", CHAMPION, {})])
    s = rnf(spears(), boss)
    alive = {m.id for m in s.unit("swords").models}
    assert discipline_of(s, "swords", alive) == (8, "swords/2")          # the commander's 8
    m = s.model("swords/2")
    s2 = s.with_models([m.__class__(**{**m.__dict__, "status": ("disgraced",)})])
    assert discipline_of(s2, "swords", alive) == (7, "swords/1")         # the retinue's 7


def test_no_wound_from_the_units_pool_reaches_a_duellist():
    from tabletop.rules.rank_and_flank.round import Blows, casualties, plan_round
    s = rnf(spears(), swords())
    s = s.with_models([s.model("spears/2").__class__(**{**s.model("spears/2").__dict__,
                                                        "status": ("challenge:swords/2",)}),
                       s.model("swords/2").__class__(**{**s.model("swords/2").__dict__,
                                                        "status": ("challenge:spears/2",)})])
    g = snapshot(s)
    ctx = plan_round(s, g, list(COMBAT), Decisions([], None), None, FixedDice([]))
    assert ctx.extra["challenge"] == ("spears/2", "swords/2")
    assert {"spears/2", "swords/2"} <= ctx.excluded and {"spears/2", "swords/2"} <= ctx.protected
    # 12 wounds in the Swordsmen's pool: its 9 other models die, 3 are wasted; the Champion stands
    cas, alive = casualties(ctx, Blows(pools={"swords": 12}))
    assert "swords/2" not in cas["swords"].removed and len(cas["swords"].removed) == 9
    assert alive["swords"] == {"swords/2"} and cas["swords"].wasted == 3
    # its challenge wounds still reach it
    cas, _ = casualties(ctx, Blows(pools={"swords": 1}, duel={"swords/2": 1}))
    assert "swords/2" in cas["swords"].removed


def test_exact_duel_odds_by_hand():
    from fractions import Fraction as Fr

    from tabletop.rules.challenges.character_duel import duel_odds
    killer = dict(CHAMPION)
    s = rnf(spears(), swords(chars=[(2, 1, "champion", killer, {"keywords": ["killing-blow"]})]))
    o = duel_odds(*fighters(s, "spears/2", "swords/2"))
    # Captain: 3 attacks, each wounds with 2/3 (hit 3+) x 2/3 (save 5+ fails) = 4/9; the 1-Wound
    # Champion dies with 1 - (5/9)^3 = 604/729.  Champion: 2 attacks, each a Killing Blow (a 6,
    # 2 wounds) 1/6, a 4-5 then a failed 4+ save (1 wound) 1/6, nothing 2/3; the 2-Wound Captain
    # dies unless the total is 0 or 1: 1 - (4/9 + 2 x 2/3 x 1/6) = 1/3.
    assert o["win"] == {"red": Fr(604, 729) * Fr(2, 3), "blue": Fr(125, 729) * Fr(1, 3)}
    assert o["both_die"] == Fr(604, 729) * Fr(1, 3)
    assert o["both_survive"] == Fr(125, 729) * Fr(2, 3)
