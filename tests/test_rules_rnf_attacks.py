"""Who attacks (rank-and-flank-combat.txt "Who attacks", "Commanders in combat"), worked by hand.

Scenarios: ``a`` is red, 5 files x 4 ranks of 25mm infantry facing 90 (up)
with its front edge centred on (24, 24); B = 25/25.4" is one base.  Unless
said, every profile is Attacks 1 (tests/rnf_maps.py INF).
"""

from __future__ import annotations

from rnf_maps import B25 as B
from rnf_maps import attacks_of, events, plan, rnf_map, run, unit

from tabletop.geometry import snapshot


def block(**kw):
    return unit("a", "red", (24, 24), 90, 5, 4, **kw)


def facing_block(**kw):
    return unit("b", "blue", (24, 24), 270, 5, 4, **kw)


def kinds(att):
    out = {}
    for kind, dice, _ in att.values():
        k = out.setdefault(kind, [0, 0])
        k[0] += 1
        k[1] += dice
    return {k: tuple(v) for k, v in out.items()}


def test_front_contact_front_rank_and_supporting_second_rank():
    # Front: 5 front-rank models with their Attacks (2 each here) and 5 supporting
    # attacks from the second rank (1 each, whatever their Attacks): 10 + 5 dice.
    ctx = plan(rnf_map(block(profile={"Attacks": 2}), facing_block()))
    att = attacks_of(ctx, "a")
    assert kinds(att) == {"front": (5, 10), "support": (5, 5)}
    assert all(att[f"a/{n}"] == ("front", 2, "b") for n in range(1, 6))
    assert all(att[f"a/{n}"] == ("support", 1, "b") for n in range(6, 11))
    # ranks 3 and 4 do not attack
    assert not any(f"a/{n}" in att for n in range(11, 21))


def test_flank_contact_models_along_the_flank_full_attacks_no_support():
    # b: 4 files x 2 ranks facing east, front edge on a's left flank (x = 24 - 2.5B),
    # covering y 24-4B..24.  a fights with the 4 models along its left flank
    # (a/1, a/6, a/11, a/16), Attacks 2 each, and no supporting attacks.
    b = unit("b", "blue", (24 - 2.5 * B, 24 - 2 * B), 0, 4, 2, charged=True)
    ctx = plan(rnf_map(block(profile={"Attacks": 2}), b))
    att = attacks_of(ctx, "a")
    assert att == {m: ("flank", 2, "b") for m in ("a/1", "a/6", "a/11", "a/16")}
    # b fights to its front: 4 front + 4 supporting
    assert kinds(attacks_of(ctx, "b")) == {"front": (4, 4), "support": (4, 4)}


def test_a_short_centred_rear_rank_is_not_along_the_flank():
    # a: 5x4 with 17 models: ranks of 5, 5, 5 and 2; the 2 of rank 4 (a/16, a/17) stand
    # centred behind files 2.5 and 3.5, so a/16's left edge is 1.5B inside the left flank
    # edge x = 24 - 2.5B.  b on the left flank as above: the models along the flank are
    # a/1, a/6, a/11 only ("Every model along the engaged flank"): 3 dice, not 4.
    b = unit("b", "blue", (24 - 2.5 * B, 24 - 2 * B), 0, 4, 1)
    ctx = plan(rnf_map(block(count=17), b))
    assert attacks_of(ctx, "a") == {m: ("flank", 1, "b") for m in ("a/1", "a/6", "a/11")}
    f = ctx.forms["a"]
    assert f.flank_file("left") == ["a/1", "a/6", "a/11"]
    assert f.flank_file("right") == ["a/5", "a/10", "a/15"]
    # once a/5, a/10 and a/15 are gone, the right edge of the living models is a/4's:
    # left + 4B: a/4, a/9, a/14 stand on it; a/17 (file 3.5: right edge at left + 3.5B) does not
    alive = [m for m in f.placements if m not in ("a/5", "a/10", "a/15")]
    assert f.flank_file("right", alive) == ["a/4", "a/9", "a/14"]


def rear_map(commander_rank: int, ranks: int):
    cmd = {"name": "Captain", "role": "commander", "file": 3, "rank": commander_rank,
           "profile": {"Skill": 5, "Attacks": 3, "Wounds": 2, "Discipline": 8}}
    a = unit("a", "red", (24, 24), 90, 5, ranks, models=[cmd])
    # b faces the same way as a, its front edge on a's rear edge
    b = unit("b", "blue", (24, 24 - ranks * B), 90, 5, 2, charged=True)
    return rnf_map(a, b)


def test_rear_nobody_attacks_but_a_one_rank_commander_may():
    ctx = plan(rear_map(commander_rank=1, ranks=1))
    # Rear: the troops do not attack; the commander, its unit one rank deep, fights
    # to the rear with its own 3 Attacks against b
    assert attacks_of(ctx, "a") == {"a/3": ("commander", 3, "b")}
    assert any("nobody attacks to the rear" in n for n in ctx.notes)
    assert kinds(attacks_of(ctx, "b")) == {"front": (5, 5), "support": (5, 5)}


def test_commander_of_a_deeper_unit_does_not_fight_to_the_rear():
    # a is 2 ranks deep, its commander in the rear rank touches b: it may not fight
    ctx = plan(rear_map(commander_rank=2, ranks=2))
    assert attacks_of(ctx, "a") == {}
    assert any("a/8 (commander)" in n for n in ctx.notes)


def corner_map():
    # b: 2 files x 1 rank facing down, its front edge on a's front over x 24+0.5B..24+2.5B
    # (touching a/4 and a/5); c: 1 file x 3 ranks facing east on a's left flank,
    # touching only a/1 (y 24-B..24)
    b = unit("b", "blue", (24 + 1.5 * B, 24), 270, 2, 1)
    c = unit("c", "blue", (24 - 2.5 * B, 24 - 0.5 * B), 0, 1, 3)
    return rnf_map(block(), b, c)


def test_corner_model_fights_to_its_front_if_it_can():
    ctx = plan(corner_map())
    assert ctx.units == ["a", "b", "c"]          # two enemy units, one engagement
    att = attacks_of(ctx, "a")
    # a/1 touches only c (on its flank), but a's front is engaged: it fights to its
    # front, against the nearest front enemy b
    assert att["a/1"] == ("front", 1, "b")
    # the rest of the left flank file fights c with full Attacks
    assert [att[m] for m in ("a/6", "a/11", "a/16")] == [("flank", 1, "c")] * 3
    # second rank supports the front, except a/6 which fights the flank
    assert [att[f"a/{n}"] for n in (7, 8, 9, 10)] == [("support", 1, "b")] * 4
    assert ctx.sides["a"].disrupted
    assert ctx.sides["a"].disrupted_reasons == ["c touches its left flank", "fighting 2 enemy units"]


def test_corner_model_fights_to_its_flank_when_the_front_is_free():
    c = unit("c", "blue", (24 - 2.5 * B, 24 - 0.5 * B), 0, 1, 3)
    ctx = plan(rnf_map(block(), c))
    assert attacks_of(ctx, "a")["a/1"] == ("flank", 1, "c")


def test_spear_and_shield_third_rank_unless_charge_bonus():
    ctx = plan(rnf_map(block(keywords=["spear-and-shield"]), facing_block()))
    # 5 front + 5 second-rank + 5 third-rank supporting attacks
    assert kinds(attacks_of(ctx, "a")) == {"front": (5, 5), "support": (10, 10)}
    # having charged this turn, it has a charge bonus: two ranks only
    ctx = plan(rnf_map(block(keywords=["spear-and-shield"], charged=True), facing_block()))
    assert kinds(attacks_of(ctx, "a")) == {"front": (5, 5), "support": (5, 5)}
    assert any("charge bonus" in n for n in ctx.notes)


def test_zero_attacks_models_make_no_supporting_attacks():
    zero = [{"file": f, "rank": 2, "profile": {"Attacks": 0}} for f in (1, 2, 3)]
    ctx = plan(rnf_map(block(models=zero), facing_block()))
    att = attacks_of(ctx, "a")
    # a/6, a/7, a/8 have 0 Attacks: no supporting attack; a/9 and a/10 support
    assert kinds(att) == {"front": (5, 5), "support": (2, 2)}
    assert sum("no supporting attack" in n for n in ctx.notes) == 3


def test_narrow_lance_fights_with_both_flank_files():
    # 3 wide x 3 deep lance cavalry (30x60mm), Attacks 2, facing b's front
    lance = unit("a", "red", (24, 24), 90, 3, 3, base="30x60mm", keywords=["cavalry", "lance"],
                 profile={"Attacks": 2})
    ctx = plan(rnf_map(lance, facing_block()))
    att = attacks_of(ctx, "a")
    # front rank a/1..a/3 full (6); flank files of ranks 2 and 3, a/4 a/6 a/7 a/9 full (8);
    # a/5 supports (+1); a/8 in the third rank does nothing: 15 dice
    assert {m for m, v in att.items() if v[0] == "lance"} == {"a/4", "a/6", "a/7", "a/9"}
    assert kinds(att) == {"front": (3, 6), "lance": (4, 8), "support": (1, 1)}
    # four wide: no longer narrow, 4 front + 4 supporting
    wide = unit("a", "red", (24, 24), 90, 4, 2, base="30x60mm", keywords=["cavalry", "lance"],
                profile={"Attacks": 2})
    assert kinds(attacks_of(plan(rnf_map(wide, facing_block())), "a")) == {
        "front": (4, 8), "support": (4, 4)}


def test_frenzy_only_in_the_first_round_after_a_charge():
    fr = dict(keywords=["frenzy"])
    ctx = plan(rnf_map(block(**fr), facing_block(charged=True)))
    assert ctx.first_round and kinds(attacks_of(ctx, "a"))["front"] == (5, 10)
    ctx = plan(rnf_map(block(**fr), facing_block()))
    assert not ctx.first_round and kinds(attacks_of(ctx, "a"))["front"] == (5, 5)


def test_commanders_in_contact_duel_and_troops_never_attack_them():
    ca = {"role": "commander", "file": 3, "rank": 1, "profile": {"Attacks": 3}}
    cb = {"role": "commander", "file": 3, "rank": 1, "profile": {"Attacks": 2}}
    ctx = plan(rnf_map(unit("a", "red", (24, 24), 90, 5, 1, models=[ca]),
                       unit("b", "blue", (24, 24), 270, 5, 1, models=[cb])))
    assert ctx.duels == [("a/3", "b/3")]
    att = attacks_of(ctx, "a")
    assert att["a/3"] == ("duel", 3, "b/3")
    # rank-and-file attack the unit's wound pool, never the commander
    assert all(v == ("front", 1, "b") for m, v in att.items() if m != "a/3")
    assert attacks_of(ctx, "b")["b/3"] == ("duel", 2, "a/3")


def test_commander_on_a_monster_fights_as_part_of_its_mount():
    ca = {"role": "commander", "file": 3, "rank": 1, "keywords": ["monster"], "profile": {"Attacks": 3}}
    ctx = plan(rnf_map(unit("a", "red", (24, 24), 90, 5, 1, models=[ca]), facing_block()))
    assert attacks_of(ctx, "a")["a/3"] == ("front", 3, "b")


def offset_duel_map():
    # a: red 5 x 1, its commander a/1 at file 1 (x 24-2.5B..24-1.5B); b: blue 5 x 1 facing
    # 270 two bases to the right (front edge centred on (24 + 2B, 24): x 24-0.5B..24+4.5B),
    # its commander b/1 at its file 1, its left end as it faces: x 24+3.5B..24+4.5B.  The
    # units touch over x 24-0.5B..24+2.5B; neither commander touches the other unit.
    ca = {"role": "commander", "file": 1, "rank": 1,
          "profile": {"Skill": 5, "Attacks": 2, "Wounds": 2, "Discipline": 9}}
    cb = {"role": "commander", "file": 1, "rank": 1,
          "profile": {"Skill": 4, "Attacks": 1, "Wounds": 2, "Discipline": 8}}
    return rnf_map(unit("a", "red", (24, 24), 90, 5, 1, models=[ca]),
                   unit("b", "blue", (24 + 2 * B, 24), 270, 5, 1, models=[cb]))


def test_commanders_of_two_units_in_contact_duel_without_touching_each_other():
    # "When both sides of a fight have a commander, the commanders duel" (DUEL_WHEN: the two
    # units are in base contact and each has a living commander that fights separately)
    state = offset_duel_map()
    geo = snapshot(state)
    assert geo.sides("a").contacts_of("a/1") == [] and geo.sides("b").contacts_of("b/1") == []
    ctx = plan(state)
    assert ctx.duels == [("a/1", "b/1")]
    assert attacks_of(ctx, "a")["a/1"] == ("duel", 2, "b/1")
    assert attacks_of(ctx, "b")["b/1"] == ("duel", 1, "a/1")
    assert not any("does not attack" in n for n in ctx.notes)


def test_the_offset_duel_in_a_round():
    faces = ([1, 1, 1, 1]        # a's troops a/2..a/5: 4 dice at 4+, no hits
             + [6, 6] + [1, 1]   # a/1 v b/1: Skill 5 > 4 so 3+: 2 hits; b/1 saves 4+: 2 fail
             + [1, 1, 1, 1]      # b's troops: no hits
             + [1]               # b/1 v a/1: Skill 4 < 5 so 4+: a miss
             + [2, 2])           # b's break test
    res, log, dice = run(offset_duel_map(), faces)
    assert dice.remaining == []
    # b/1 (Wounds 2) takes both wounds and dies; the duel's wounds never reach b's troops
    assert [e["model"] for e in events(log, "removed")] == ["b/1"]
    (score,) = events(log, "combat_score")
    assert score["scores"] == {"red": 2, "blue": 0}
    (bt,) = events(log, "break_test")
    # b's commander is dead: the troops' Discipline 7, no ranks, difference 2: 5; 2 + 2 holds
    assert (bt["discipline_from"], bt["target"], bt["passed"]) == ("b/2", 5, True)
