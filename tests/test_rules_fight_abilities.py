"""Weapon abilities in the attack sequence (Making Attacks 04, cited by fight-phase.txt 12.05):
hand-worked with FixedDice.

Positions (32mm bases, radius 0.62992", two touch at centres 1.25984" apart):
a/1 at (5, 8); b/1 at (6.26, 8) touches it (gap 0.00016"); b/2 at (6.26, 9.5),
1.5" above b/1 (gap 0.24", in coherency) and sqrt(1.26^2 + 1.5^2) - 1.25984 =
0.699" from a/1, so engaged (2" and 1" engagement alike).  Only a/1 attacks
(it is resolved by ``resolve_attacks`` directly).  Removing either b model keeps
the other in coherency, so the first wound goes to the one farthest from the
enemy, b/2 (0.699" against b/1's 0"), and the next ones to the wounded b/2.

Dice order: attack count (only when A is dice), hit roll, hit re-roll,
Sustained Hits dice, wound roll, wound re-roll, then per wound: save, damage
dice, Feel No Pain dice; Devastating Wounds after the other wounds.
"""

from __future__ import annotations

import json

import pytest
from fightkit import context, resolve_attacks, state_from

from tabletop.board.config import make_config
from tabletop.cli import main
from tabletop.rules.fight_phase.abilities import WeaponAbilities, parse_abilities
from tabletop.rules.fight_phase.amounts import DiceExpr
from tabletop.rules.fight_phase.profiles import check_profiles, unknown_words

PAIR = """
[[units]]
id = "a"
player = "red"
base = "32mm"
charged = {charged}
profile = {{ T = 4, Sv = 3, W = 2 }}
weapons = [{{ name = "Axe", A = {A}, WS = 3, S = {S}, AP = {AP}, D = {D}, rules = {rules} }}]
models = [[5, 8]]

[[units]]
id = "b"
player = "blue"
base = "32mm"
keywords = {keywords}
profile = {{ T = {T}, Sv = {Sv}, W = {W}{extra} }}
weapons = []
models = [[6.26, 8], [6.26, 9.5]]
"""


def pair(rules=(), A=1, S=4, AP=0, D=1, T=4, Sv=6, W=3, extra="", keywords=(), charged=False,
         rules_table=""):
    text = PAIR.format(A=A, S=S, AP=AP, D=D, T=T, Sv=Sv, W=W, extra=extra,
                       rules=json.dumps(list(rules)), keywords=json.dumps(list(keywords)),
                       charged=str(charged).lower())
    return state_from(text, rules=rules_table)


def run(state, faces):
    ctx = context(state, faces)
    resolve_attacks(ctx, "a")
    assert ctx.dice.remaining == []          # exactly the dice the hand count uses
    return ctx, ctx.log.of_type("attacks_resolved")[0]


def rolls(ctx):
    return [(r["purpose"].split(":")[0], r["dice"], r["result"]) for r in ctx.log.of_type("roll")]


# --- parsing: one typed value per weapon ------------------------------------------------------

def test_rules_words_parse_into_weapon_abilities():
    ab, unknown = parse_abilities(["Lethal Hits", "sustained-hits-2", "Devastating Wounds",
                                   "Anti-Infantry 4+", "Anti-Monster (5+)", "Twin-linked",
                                   "Re-roll 1s to hit", "LANCE", "-2 to hit", "+1 to wound",
                                   "Hatred", "Sustained Hits"])
    assert ab == WeaponAbilities(lethal_hits=True, sustained_hits=2, devastating_wounds=True,
                                 anti=(("infantry", 4), ("monster", 5)), twin_linked=True,
                                 reroll_hits="ones", reroll_wounds="failed", lance=True,
                                 hit_modifier=-2, wound_modifier=1)
    # "Sustained Hits" without its X is not read: it is reported, not guessed
    assert unknown == ["Hatred", "Sustained Hits"]


@pytest.mark.parametrize("word, field, which", [
    ("re-roll hits", "reroll_hits", "failed"), ("Re-roll hit rolls", "reroll_hits", "failed"),
    ("reroll hits of 1", "reroll_hits", "ones"), ("re-roll hit rolls of 1", "reroll_hits", "ones"),
    ("RE-ROLL WOUND ROLLS OF 1", "reroll_wounds", "ones"), ("re_roll wounds", "reroll_wounds", "failed"),
    ("re-roll ones to wound", "reroll_wounds", "ones"),
])
def test_reroll_spellings(word, field, which):
    ab, unknown = parse_abilities([word])
    assert (getattr(ab, field), unknown) == (which, [])


def test_sustained_hits_dice_and_the_gambit_word_are_known():
    ab, unknown = parse_abilities(["Sustained Hits D3", "Duellist's Edge (1)"])
    assert (ab.sustained_hits, unknown) == (DiceExpr(1, 3, 0), [])


# --- critical hits, Lethal Hits, Sustained Hits -----------------------------------------------

def test_lethal_hits_a_critical_hit_wounds_without_a_wound_roll():
    # A4 WS3+: hits 6 (critical), 3, 2 (miss), 5 -> 3 hits, the 6 wounds automatically
    # wound roll for the other 2 hits, S4 v T4 needs 4+: 4 wounds, 1 fails -> 1 + 1 = 2 wounds
    # saves Sv4+ AP0: 3 fails (1 D1 to b/2), 5 saves -> 1 unsaved; b/2 has lost 1 of 3
    ctx, s = run(pair(["Lethal Hits"], A=4, Sv=4), [6, 3, 2, 5, 4, 1, 3, 5])
    assert (s["attacks"], s["hits"], s["critical_hits"], s["auto_wounds"], s["wounds"],
            s["unsaved"]) == (4, 3, 1, 1, 2, 1)
    assert rolls(ctx)[1] == ("wound roll", [4, 1], 1)       # two dice, not three
    assert ctx.state.model("b/2").wounds_lost == 1


def test_without_lethal_hits_the_six_rolls_to_wound():
    # the same first dice without the ability: 3 hits roll to wound: 4, 1, 3 -> 1 wound; save 5 saves
    ctx, s = run(pair([], A=4, Sv=4), [6, 3, 2, 5, 4, 1, 3, 5])
    assert (s["hits"], s["critical_hits"], s["auto_wounds"], s["wounds"], s["unsaved"]) \
        == (3, 1, 0, 1, 0)


def test_sustained_hits_2_adds_two_hits_per_critical_hit():
    # A3: 6 (critical: +2 hits), 1 (miss), 4 -> 2 + 2 = 4 hits
    # wound 4+: 4, 4, 3, 2 -> 2 wounds; saves Sv4+: 1, 1 -> 2 unsaved, D1 each on b/2 -> 2 lost
    ctx, s = run(pair(["Sustained Hits 2"], A=3, Sv=4), [6, 1, 4, 4, 4, 3, 2, 1, 1])
    assert (s["hits"], s["extra_hits"], s["wounds"], s["unsaved"]) == (4, 2, 2, 2)
    assert ctx.state.model("b/2").wounds_lost == 2


def test_sustained_hits_d3_is_rolled_per_critical_hit_and_logged():
    # A1: 6 (critical); Sustained Hits D3: a 5 halved rounding up = 3 -> 1 + 3 = 4 hits
    # wound 4+: 1, 1, 1, 1 -> none
    ctx, s = run(pair(["Sustained Hits D3"]), [6, 5, 1, 1, 1, 1])
    assert (s["hits"], s["extra_hits"], s["wounds"]) == (4, 3, 0)
    assert rolls(ctx)[1] == ("sustained hits of a critical hit (Axe) (D3, a D6 halved rounding up)",
                             [5], 3)


def test_a_critical_hit_always_hits_and_a_one_always_fails():
    # "-2 to hit" is capped at -1: WS3+ needs 3 + 1 = 4 on the die; a 6 hits anyway, 1 fails
    # hits: 6 (critical), 4 (4 - 1 = 3: hit), 3 (3 - 1 = 2: miss), 1 -> 2 hits; wounds 1, 1
    ctx, s = run(pair(["-2 to hit"], A=4), [6, 4, 3, 1, 1, 1])
    assert s["hits"] == 2
    assert ctx.log.of_type("roll")[0]["modifiers"] == {"-2 to hit": -2, "cap": 1}


def test_roll_modifier_cap_is_a_rules_option():
    # [rules] roll_modifier_cap = 2: -2 to hit counts in full; 4 - 2 = 2 misses, only the 6 hits
    ctx, s = run(pair(["-2 to hit"], A=4, rules_table="[rules]\nroll_modifier_cap = 2\n"),
                 [6, 4, 3, 1, 1])
    assert s["hits"] == 1


# --- wound roll: Anti, Lance, the cap, re-rolls -------------------------------------------------

def test_anti_keyword_makes_a_critical_wound_on_its_roll():
    # S4 against T8: 2 x 4 <= 8 needs 6+; Anti-Infantry 4+ against an INFANTRY unit: a 4 is a
    # critical wound; with Devastating Wounds no save (Sv 2 would have saved on the 3 left over)
    ctx, s = run(pair(["Anti-infantry 4+", "Devastating Wounds"], T=8, Sv=2, keywords=["Infantry"]),
                 [3, 4])
    assert (s["wounds"], s["critical_wounds"], s["unsaved"]) == (1, 1, 1)
    assert [e["model"] for e in ctx.log.of_type("no_save")] == ["b/2"]
    assert ctx.state.model("b/2").wounds_lost == 1


def test_anti_keyword_does_nothing_against_other_units():
    # the same dice against a unit without the keyword: the 4 does not reach 6+
    ctx, s = run(pair(["Anti-infantry 4+"], T=8, Sv=2, keywords=["Vehicle"]), [3, 4])
    assert (s["wounds"], s["critical_wounds"]) == (0, 0)


def test_twin_linked_rerolls_the_failed_wound_rolls():
    # A2 hits 3, 3; wound 4+: 2 (fails), 5 -> re-roll the 2: 4 -> 2 wounds; saves Sv6+: 1, 1
    ctx, s = run(pair(["Twin-linked"], A=2), [3, 3, 2, 5, 4, 1, 1])
    assert s["wounds"] == 2
    assert rolls(ctx)[1:3] == [("wound roll", [2, 5], 1), ("wound re-roll (failed)", [4], 1)]


def test_reroll_hits_of_one_rerolls_only_the_ones():
    # A3 WS3+: 1, 2, 6 -> re-roll only the 1: 3 -> hits 3, 6 (the 2 stays a miss); wounds 1, 1
    ctx, s = run(pair(["re-roll hits of 1"], A=3), [1, 2, 6, 3, 1, 1])
    assert s["hits"] == 2
    assert rolls(ctx)[1] == ("hit re-roll (ones)", [3], 1)


def test_reroll_hits_rerolls_every_failed_hit_roll():
    # the same first roll, "re-roll hit rolls": the 1 and the 2 again: 3, 1 -> hits 3, 6
    ctx, s = run(pair(["Re-roll hit rolls"], A=3), [1, 2, 6, 3, 1, 1, 1])
    assert s["hits"] == 2
    assert rolls(ctx)[1] == ("hit re-roll (failed)", [3, 1], 1)


def test_lance_adds_one_to_wound_when_the_unit_charged():
    # S4 against T5: 4 < 5 and 8 > 5 needs 5+; charged with Lance: a 4 + 1 = 5 wounds
    # Sv6 with AP -1 needs 7+: no save; D1 on b/2
    ctx, s = run(pair(["Lance"], T=5, AP=-1, charged=True), [3, 4])
    assert s["wounds"] == 1
    assert ctx.log.of_type("roll")[1]["modifiers"] == {"Lance": 1}
    assert ctx.state.model("b/2").wounds_lost == 1


def test_lance_does_nothing_without_a_charge():
    ctx, s = run(pair(["Lance"], T=5, AP=-1, charged=False), [3, 4])
    assert s["wounds"] == 0
    assert ctx.log.of_type("roll")[1]["modifiers"] == {}


def test_wound_modifiers_are_capped_at_plus_one():
    # S4 against T6 needs 5+; Lance +1 and "+1 to wound" = +2, capped to +1:
    # 3 + 1 = 4 fails (it would pass at +2), 4 + 1 = 5 wounds -> 1 wound; Sv6 AP-1: no save
    ctx, s = run(pair(["Lance", "+1 to wound"], A=2, T=6, AP=-1, charged=True), [3, 3, 3, 4])
    assert s["wounds"] == 1
    assert ctx.log.of_type("roll")[1]["modifiers"] == {"Lance": 1, "+1 to wound": 1, "cap": -1}


# --- Devastating Wounds: the two [rules] readings ---------------------------------------------

def test_devastating_wounds_no_save_after_the_other_wounds():
    # A2 hits 4, 4; wound 4+: 6 (critical), 4 -> 2 wounds; the ordinary one first: Sv3+ 3 saves;
    # then the critical one: no save, D2 to b/2 -> 2 lost of 3
    ctx, s = run(pair(["Devastating Wounds"], A=2, D=2, Sv=3), [4, 4, 6, 4, 3])
    assert (s["wounds"], s["critical_wounds"], s["unsaved"]) == (2, 1, 1)
    assert [r["purpose"].split(":")[0] for r in ctx.log.of_type("roll")] \
        == ["hit roll", "wound roll", "armour save"]
    assert ctx.state.model("b/2").wounds_lost == 2


def test_devastating_wounds_no_save_loses_excess_damage():
    # W1 models; the critical wound's D2 goes to b/2 only: 1 lost, the other point is lost
    ctx, s = run(pair(["Devastating Wounds"], D=2, W=1), [3, 6])
    assert s["removed"] == ["b/2"]
    assert [m.id for m in ctx.state.unit("b").models] == ["b/1"]


def test_devastating_wounds_as_mortal_wounds_spill_over():
    # [rules] devastating_wounds = "mortal": D2 becomes 2 mortal wounds: b/2 (W1) then b/1
    state = pair(["Devastating Wounds"], D=2, W=1,
                 rules_table='[rules]\ndevastating_wounds = "mortal"\n')
    ctx, s = run(state, [3, 6])
    assert (s["mortal_wounds"], s["removed"]) == (2, ["b/2", "b/1"])
    assert [e["amount"] for e in ctx.log.of_type("mortal_wounds")] == [2]
    assert ctx.log.of_type("destroyed")[0]["unit"] == "b"


def test_devastating_wounds_presets_per_edition():
    assert make_config("fight-phase").devastating_wounds == "no-save"
    assert make_config("fight-phase", {"edition": "10th"}).devastating_wounds == "mortal"
    assert make_config("fight-phase", {"edition": "10th"}).roll_modifier_cap == 1


# --- invulnerable save, Feel No Pain ------------------------------------------------------------

def test_invsv_profile_key_is_an_invulnerable_save():
    # AP -3: armour 3 + 3 = 6+; InvSv 4+ is better and AP does not touch it: a 4 saves
    ctx, s = run(pair([], AP=-3, Sv=3, extra=", InvSv = 4"), [3, 4, 4])
    save = ctx.log.of_type("roll")[2]
    assert (save["target"], save["modifiers"], save["result"], s["unsaved"]) \
        == (4, {}, "saved", 0)


def test_feel_no_pain_ignores_points_of_damage():
    # hit 3, wound 4, save Sv6 1 fails; D2 -> FNP 5+ per point: 5 (ignored), 2 -> 1 lost
    ctx, s = run(pair([], D=2, extra=", FNP = 5"), [3, 4, 1, 5, 2])
    assert s["fnp_ignored"] == 1
    fnp = ctx.log.of_type("roll")[3]
    assert (fnp["purpose"], fnp["dice"], fnp["target"], fnp["player"]) \
        == ("feel no pain: b/2", [5, 2], 5, "blue")
    assert ctx.state.model("b/2").wounds_lost == 1


def test_feel_no_pain_keyword_can_ignore_every_point():
    # keyword "Feel No Pain 6+": D2, FNP 6, 6 -> nothing lost, no wounded event
    ctx, s = run(pair([], D=2, keywords=["Feel No Pain 6+"]), [3, 4, 1, 6, 6])
    assert (s["unsaved"], s["fnp_ignored"]) == (1, 2)
    assert ctx.log.of_type("wounded") == []


def test_feel_no_pain_against_mortal_wounds_is_rolled_per_model():
    # mortal reading, FNP 5+, W1: 2 mortal wounds: b/2 gets 1 (FNP 5: ignored), b/2 again gets 1
    # (FNP 2: lost, removed) -> the unit keeps b/1
    state = pair(["Devastating Wounds"], D=2, W=1, extra=", FNP = 5",
                 rules_table='[rules]\ndevastating_wounds = "mortal"\n')
    ctx, s = run(state, [3, 6, 5, 2])
    assert (s["fnp_ignored"], s["removed"]) == (1, ["b/2"])


# --- what the program does not read is a warning ----------------------------------------------

def test_unknown_rules_words_and_profile_keys_are_warnings():
    state = pair(["Lethal Hits", "Hatred"], extra=", Xyz = 1")
    assert check_profiles(state) == []
    # one line per word, units in file order; a unit-level place shared by two models once
    assert unknown_words(state) == [
        "test.toml: units[0].weapons[0].rules: unknown rule word 'Hatred' on Axe of unit a: "
        "the attacks ignore it",
        "test.toml: units[1].profile: unknown profile key 'Xyz' of unit b: the attacks ignore it"]


def test_a_bad_feel_no_pain_is_a_profile_problem():
    state = pair([], extra=', FNP = "often"')
    assert check_profiles(state) == [
        "test.toml: units[1].profile.FNP: must be a roll needed from 2 to 6 such as 5 or \"5+\", "
        "got 'often'"]


def test_check_reports_unknown_words(write_map, capsys):
    from fightkit import HEADER
    text = HEADER.format(rules="") + PAIR.format(
        A=1, S=4, AP=0, D=1, T=4, Sv=6, W=3, extra="", rules='["Hatred"]', keywords="[]",
        charged="false")
    path = write_map(text)
    assert main(["check", path, "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["problems"] == 0
    assert report["warnings"] == [
        "units[0].weapons[0].rules: unknown rule word 'Hatred' on Axe of unit a: "
        "the attacks ignore it"]


def test_fight_prints_unknown_words_on_stderr(write_map, capsys):
    from fightkit import HEADER
    text = HEADER.format(rules="") + PAIR.format(
        A=1, S=4, AP=0, D=1, T=4, Sv=6, W=3, extra="", rules='["Hatred"]', keywords="[]",
        charged="false")
    path = write_map(text)
    main(["fight", path, "--seed", "1"])
    assert (f"{path}: warning: units[0].weapons[0].rules: unknown rule word 'Hatred' on Axe of "
            f"unit a: the attacks ignore it") in capsys.readouterr().err


def test_exact_odds_count_lethal_hits():
    """The odds engine walks the same sequence: R (charged, A1 WS3+ S4, Lethal Hits) against a
    W1 model with no save (Sv 7) and no attacks: removed on a hit roll of 6 (1/6) or of 3-5 then
    a wound roll of 4+ (3/6 * 3/6 = 1/4): 1/6 + 1/4 = 5/12 (without Lethal Hits 4/6 * 3/6 = 1/3)."""
    from fractions import Fraction

    from fightkit import unit

    from tabletop.rules.fight_phase import odds as fight_odds
    blade = 'name = "Blade", A = 1, WS = 3, S = 4, AP = 0, D = 1'
    red = unit("R", "red", [(10, 10)], charged=True, A=1, W=1, Sv=7)
    assert blade in red
    red = red.replace(blade, blade + ', rules = ["Lethal Hits"]')
    state = state_from(red + unit("B", "blue", [(11.26, 10)], A=0, W=1, Sv=7))
    rows = {row["unit"]: row for row in fight_odds(state)["units"]}
    assert Fraction(rows["B"]["p_destroyed_exact"]) == Fraction(5, 12)
