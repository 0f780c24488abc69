"""What the program reads from a fight-phase map, and says about it (issue 8 audit, the fixups).

Bad input is a one-line problem naming the file, the place and what is wrong; ``check`` and
``fight`` agree on it (exit 2 in both for a value that stops the attacks, a warning in both for
a word the attacks ignore).  Worked by hand with the pair of ``test_rules_fight_abilities``:

a/1 (red, 32mm) at (5, 8) touches b/1 at (6.26, 8) (centres 1.26" apart, radii 0.63" each:
gap 0.00016"); b/2 at (6.26, 9.5) is 1.5" above b/1.  Only a/1 has a weapon (Axe, A1 WS3+ S4
AP0 D1, unless a test says otherwise); S4 against T4 wounds on 4+.
"""

from __future__ import annotations

import json

import pytest
from fightkit import HEADER, state_from
from loose_events import any_event as make_event
from test_rules_fight_abilities import PAIR, pair, rolls, run
from test_rules_fight_presets import LINE

from tabletop.board.config import make_config
from tabletop.cli import main
from tabletop.errors import MapValidationError
from tabletop.rules.describe import describe
from tabletop.rules.dice import FixedDice
from tabletop.rules.fight_phase import fight
from tabletop.rules.fight_phase.abilities import parse_abilities
from tabletop.rules.fight_phase.profiles import check_profiles, unknown_words


def map_text(rules=(), AP=0, extra="", rules_table=""):
    return HEADER.format(rules=rules_table) + PAIR.format(
        A=1, S=4, AP=AP, D=1, T=4, Sv=6, W=3, extra=extra, rules=json.dumps(list(rules)),
        keywords="[]", charged="false")


# ------------------------------------------------ finding 2: ability values out of range
@pytest.mark.parametrize("word, why", [
    ("Sustained Hits -1", "Sustained Hits X needs X of at least 1, or dice such as D3 or D6"),
    ("Sustained Hits 0", "Sustained Hits X needs X of at least 1, or dice such as D3 or D6"),
    ("sustained-hits-(-2)", "Sustained Hits X needs X of at least 1, or dice such as D3 or D6"),
    ("+0 to hit", "+N/-N to hit or wound needs N of at least 1"),
    ("-0 to wound", "+N/-N to hit or wound needs N of at least 1"),
    ("Anti-Infantry 7+", "Anti-KEYWORD X+ needs X from 2 to 6"),
])
def test_an_ability_value_outside_what_it_allows_is_not_read(word, why):
    # Before: "Sustained Hits -1" read as Sustained Hits 1 (the hyphen-as-space reading ate the
    # sign), "+0 to hit" and "Sustained Hits 0" accepted silently.  Now each is left unread ...
    ab, unknown = parse_abilities([word, "Lethal Hits"])
    assert (ab.sustained_hits, ab.hit_modifier, ab.wound_modifier, ab.anti) == (0, 0, 0, ())
    assert ab.lethal_hits and unknown == [word]
    # ... and reported, naming the weapon and the word, with what the ability needs
    state = pair([word])
    assert check_profiles(state) == []
    assert unknown_words(state) == [
        f"test.toml: units[0].weapons[0].rules: {word!r} on Axe of unit a: {why}: the attacks "
        f"ignore it"]


def test_allowed_values_still_read():
    # the edges of what each allows: X = 1, N = 1 and N = 7 (the cap brings +7 to +1), X+ = 6+
    ab, unknown = parse_abilities(["Sustained Hits 1", "+7 to hit", "-1 to wound",
                                   "Anti-Vehicle 6+"])
    assert (ab.sustained_hits, ab.hit_modifier, ab.wound_modifier, ab.anti, unknown) == \
        (1, 7, -1, (("vehicle", 6),), [])


def test_sustained_hits_minus_one_adds_no_hit_in_a_fight():
    # A1: hit roll 6 (critical, hits); with the word unread there are no extra hits (it was
    # +1 before); wound 4 (4+ wounds); Sv6 save 1 fails; D1 -> b/2 loses 1.  Dice 6, 4, 1.
    ctx, s = run(pair(["Sustained Hits -1"]), [6, 4, 1])
    assert (s["critical_hits"], s["extra_hits"], s["hits"], s["unsaved"]) == (1, 0, 1, 1)


# ------------------------------------------------ finding 3: Inv validated like FNP
@pytest.mark.parametrize("extra, key, got", [
    (", Inv = 0", "Inv", "0"), (", Inv = 7", "Inv", "7"), (', InvSv = "1+"', "InvSv", "'1+'"),
    (', Inv = "often"', "Inv", "'often'"),
    (", FNP = 9", "FNP", "9"),
])
def test_a_bad_invulnerable_save_is_a_profile_problem(extra, key, got):
    # Inv 0 was read as a 0+ save ("needing 0+"); Inv 7 was taken silently; FNP 9 was already
    # refused.  The same check, the same words, for both (the example differs: 4+ and 5+).
    ex = 5 if key == "FNP" else 4
    state = pair([], extra=extra)
    assert check_profiles(state) == [
        f"test.toml: units[1].profile.{key}: must be a roll needed from 2 to 6 such as {ex} or "
        f"\"{ex}+\", got {got}"]


def test_a_bad_invulnerable_keyword_is_a_profile_problem():
    state = pair([], keywords=["invulnerable-0+"])
    assert check_profiles(state) == [
        "test.toml: units[1].keywords: 'invulnerable-0+': an invulnerable save must be a roll "
        "needed from 2 to 6, such as invulnerable-4+"]


def test_inv_4_is_used_when_it_needs_less():
    # Sv6 against AP -2 needs 8+ (no armour save): the Inv 4+ is used.  Dice: hit 3, wound 4,
    # invulnerable save 4 (needs 4+): saved.
    ctx, s = run(pair([], AP=-2, extra=', Inv = "4+"'), [3, 4, 4])
    assert rolls(ctx)[-1] == ("invulnerable save", [4], "saved")
    assert s["unsaved"] == 0


# ------------------------------------------------ finding 12: check and fight agree
@pytest.mark.parametrize("extra, place", [(", FNP = 9", "FNP"), (", Inv = 0", "Inv")])
def test_a_value_that_stops_the_attacks_is_bad_input_in_check_and_fight(write_map, capsys,
                                                                         extra, place):
    path = write_map(map_text(extra=extra))
    ex = 5 if place == "FNP" else 4
    line = (f"{path}: units[1].profile.{place}: must be a roll needed from 2 to 6 such as {ex} "
            f"or \"{ex}+\", got {extra.split('= ')[1]}")
    for argv in (["check", path], ["check", path, "--json"], ["fight", path, "--seed", "1"],
                 ["fight", path, "--odds"]):
        assert main(argv) == 2, argv
        out, err = capsys.readouterr()
        assert err.splitlines() == [line], argv
        assert "Traceback" not in out + err


def test_a_missing_profile_is_still_fine_for_a_layout_check(write_map, capsys):
    # a layout map need not carry profiles: check passes, fight says what is missing
    path = write_map(map_text().replace("profile = { T = 4, Sv = 6, W = 3 }", "profile = {}"))
    assert main(["check", path]) == 0
    capsys.readouterr()
    assert main(["fight", path, "--seed", "1"]) == 2
    assert "units[1].profile.T: missing (needed to make attacks)" in capsys.readouterr().err


# ------------------------------------------------ finding 4: a positive AP is read as negative
def test_a_positive_ap_is_a_note_once_per_weapon(write_map, capsys):
    # AP 1 is read as AP -1 (AP_SIGN): Sv 3 against it needs 3 + 1 = 4+.  The unit-level
    # weapon is shared by a's one model; the warning is given once for the weapon.
    text = map_text(AP=1).replace("models = [[5, 8]]", "models = [[5, 8], [5, 9.5]]")
    path = write_map(text)
    assert main(["check", path, "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["problems"] == 0
    assert report["warnings"] == [
        "units[0].weapons[0].AP: AP 1 on Axe of unit a is positive: it is read as AP -1 "
        "(a save of 3+ needs 4+)"]
    main(["fight", path, "--seed", "1"])
    assert (f"{path}: warning: units[0].weapons[0].AP: AP 1 on Axe of unit a is positive"
            in capsys.readouterr().err)


def test_ap_minus_one_and_zero_give_no_note():
    assert unknown_words(pair([], AP=-1)) == unknown_words(pair([], AP=0)) == []


# ------------------------------------------------ finding 11: booleans are not numbers
@pytest.mark.parametrize("option", ["target_selections_tried", "rank_min_models",
                                    "roll_modifier_cap", "coherency_neighbours",
                                    "coherency_neighbours_7plus", "contact_tolerance",
                                    "pile_in_distance", "engagement_range"])
def test_a_boolean_is_not_accepted_for_a_number_option(option):
    # before: true read as 1 (bool is an int in Python, and pydantic's lax mode takes it)
    with pytest.raises(MapValidationError) as err:
        state_from(LINE, rules=f"[rules]\n{option} = true\n")
    assert len(err.value.problems) == 1
    assert f"rules.{option}: must be a number, not true/false" in err.value.problems[0]


def test_the_true_false_options_still_take_booleans():
    state = state_from(LINE, rules="[rules]\nengaged_at_step_start_keeps_eligible = "
                                             "false\ncoherency_spread = false\n")
    assert state.rules.engaged_at_step_start_keeps_eligible is False
    assert make_config("fight-phase", {"target_selections_tried": 3}).target_selections_tried == 3


# ------------------------------------------------ finding 13: the cap in words
def test_a_capped_modifier_says_what_it_is_capped_to():
    # "+7 to hit": the sum +7 is held to +1 (ROLL_MODIFIER_CAP): the logged modifiers are
    # {"+7 to hit": 7, "cap": -6}; 7 - 6 = +1.  Hit roll 2 + 1 = 3 >= 3: a hit.
    ctx, s = run(pair(["+7 to hit"]), [2, 4, 1])
    ev = ctx.log.of_type("roll")[0]
    assert ev["modifiers"] == {"+7 to hit": 7, "cap": -6}          # the JSON is unchanged
    assert describe(ev) == ("Hit roll (red) - a Axe x1 at b, modifiers +7 to hit, capped to "
                            "+1: rolled 2 needing 3+ -> 1.")
    # two sources: Lance +1 and +1 to wound add to +2, held to +1 (cap -1)
    ev2 = make_event("roll", "r", {"purpose": "wound roll: S4 against T4", "dice": [3], "target": 4,
                              "modifiers": {"Lance": 1, "+1 to wound": 1, "cap": -1},
                              "result": 1, "player": "red"})
    assert describe(ev2) == ("Wound roll (red) - S4 against T4, modifiers Lance +1, +1 to "
                             "wound (+2 in all), capped to +1: rolled 3 needing 4+ -> 1.")


def test_an_uncapped_modifier_reads_as_before():
    ev = make_event("roll", "r", {"purpose": "armour save: b/1", "dice": [4], "target": 4,
                             "modifiers": {"AP": -1}, "result": "saved", "player": "blue"})
    assert describe(ev) == "Armour save (blue) - b/1, AP -1: rolled 4 needing 4+ -> saved."


# ------------------------------------------------ finding 10: why a unit drops out (10th)
def test_10th_says_why_a_unit_engaged_at_the_start_is_no_longer_eligible():
    # fightkit LINE: C (red, charged) kills V (dice 6, 6, 1); S (red) was engaged with V at
    # the start of the Fight step and is engaged with nobody now (F is 3.74" away > 1").  In
    # "10th" (engaged_at_step_start_keeps_eligible = false) it drops out: one event says so,
    # before the step ends, naming the unit and the reason.
    res = fight(state_from(LINE, rules='[rules]\nedition = "10th"\n'),
                FixedDice([6, 6, 1]))
    out = res.log.of_type("no_longer_eligible")
    assert [(e["unit"], e["player"]) for e in out] == [("S", "red")]
    # its --json fields are those docs/json.md lists (always: unit, player, reason)
    assert set(res.log.to_list()[res.log.events.index(out[0])]) == \
        {"type", "rule", "unit", "player", "reason"}
    types = [e.type for e in res.log.events]
    end = next(k for k, e in enumerate(res.log.events)
               if e.type == "combat_step" and e["step"] == "end")
    assert types.index("no_longer_eligible") < end
    assert describe(out[0]) == (
        "red's S is no longer eligible to fight: it was engaged at the start of the Fight "
        "step but is not engaged now, and engaged_at_step_start_keeps_eligible = false keeps "
        "only units engaged now (or that charged) eligible.")


def test_11th_keeps_the_unit_and_says_nothing():
    res = fight(state_from(LINE), FixedDice([6, 6, 1, 6, 6, 6]))
    assert res.log.of_type("no_longer_eligible") == []


def test_the_event_is_given_once():
    # the engine's Fight step: S, engaged with V when the step began, is alone now; entering
    # the select row again (after another fight) does not say it twice
    from dataclasses import replace

    from tabletop.rules.fight_phase.sequence import phase
    state = state_from(LINE, rules='[rules]\nedition = "10th"\n')
    machine, st = phase(state)
    memo = replace(st.memo, engaged_at_fight_start=frozenset({"C", "V", "S"}),
                   fight_step_started=True, combat="fights_first", selector=state.active_player)
    st = replace(st, battlefield=state.without_models(["V/1"]), memo=memo, cursor="select")
    select = machine.rows["select"]
    first = select.enter(st)
    again = select.enter(replace(first.state, pending=None, cursor="select"))
    told = [e for t in (first, again) for e in t.events if getattr(e, "type", None) == "no_longer_eligible"]
    assert [(e["unit"], e["player"]) for e in told] == [("S", "red")]


def test_every_number_option_is_guarded():
    # a new int or float [rules] option must be listed too (coherency_spread also takes false)
    from tabletop.board.schema import NUMBER_OPTIONS, RulesIn
    numeric = {n for n, f in RulesIn.model_fields.items()
               if any(t in str(f.annotation) for t in ("int", "float"))
               and "bool" not in str(f.annotation)}
    assert numeric == set(NUMBER_OPTIONS)


# ------------------------------------------------ finding 6: what "no legal move" measured
def test_no_legal_move_says_the_distance_is_where_the_solvers_move_ends(capsys):
    # scenario pile_in_far_10th: r/1 is 5.0" from e/1 (edge to edge), engagement range 1"
    # ("10th").  The solver's move is 3" straight at e/1: 5.0 - 3.0 = 2.0" > 1", not engaged.
    # The line says the 2.00" is where *this* move leaves the unit (a hand move judged with
    # --check is measured the same way), and the report says whose move it was.
    from conftest import SCENARIOS
    assert main(["pile-in", str(SCENARIOS / "pile_in_far_10th.toml"), "r"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "r: no legal move (fight-phase.txt 12.03); targets e",
        '  r must be engaged after its pile-in, but this move leaves it 2.00" from the nearest '
        'enemy model (engagement range 1") (12.03)',
        "  (these are the clauses the solver's move breaks, its distances where that move ends, "
        "not the closest a move could get: judge a move of your own with --check)"]


def test_a_unit_that_can_make_no_attacks_is_warned_of():
    """A weapon list with no WS (a typo) and a melee weapon with A = 0 leave a unit without
    attacks: check and fight warn (from a new user's audit: they passed in silence)."""
    from tabletop.rules.fight_phase.profiles import unknown_words
    state = state_from("""
[[units]]
id = "a"
player = "red"
base = "32mm"
profile = { T = 4, Sv = 3, W = 1 }
weapons = [{ name = "Blade", A = 2, S = 4, AP = 0, D = 1 }]
models = [[10, 10]]

[[units]]
id = "b"
player = "blue"
base = "32mm"
profile = { T = 4, Sv = 3, W = 1 }
weapons = [{ name = "Claw", A = 0, WS = 3, S = 4, AP = 0, D = 1 },
           { name = "Tickle", A = 1, WS = 3, S = 4, AP = 0, D = 0 }]
models = [[11.26, 10]]

[[units]]
id = "c"
player = "blue"
base = "32mm"
profile = { T = 4, Sv = 3, W = 1 }
weapons = []
models = [[20, 10]]
""")
    lines = unknown_words(state)
    assert any("units[0].weapons: no weapon of unit a has a WS" in x for x in lines), lines
    assert any("units[1].weapons[0].A: A = 0 on Claw of unit b" in x for x in lines), lines
    # D = 0 too (audit 9: it passed silently while A = 0 was warned of)
    assert any("units[1].weapons[1].D: D = 0 on Tickle of unit b: its attacks that wound "
               "inflict no damage" in x for x in lines), lines
    assert not any("unit c" in x for x in lines)       # no weapons at all: nothing to warn of
