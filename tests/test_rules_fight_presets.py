"""The 12.04 readings that differ by preset (issue 8, items 1 and 2), worked by hand.

fight-phase.txt 12.04: a unit is eligible to fight if it "is engaged, or it was
engaged at the start of this step", or made a charge move; the Fights First
step starts with the player whose turn it is, Remaining Combats with the player
who moved the sequence onto it.  Named defaults (board/config.py, README table):

- ``engaged_at_step_start_keeps_eligible``: "11th" true (the text), "10th" false;
- ``fight_order_first``: "11th" "active" (the text), "10th" "non-active" (the
  player whose turn it is not selects first in both steps).

Every unit is one 32mm model (radius 32 / 25.4 / 2 = 0.63"); centres 1.26" apart
touch.  Red is the player whose turn it is.  Weapons are the fightkit Blade (A1,
WS3+, S4, AP0, D1) against T4: a 6 hits, a 6 wounds (S4 v T4 needs 4+); Sv 6 is
failed on a 1 and made on a 6.
"""

from __future__ import annotations

import pytest
from fightkit import context, fight_step, state_from, unit

from tabletop.board.config import make_config
from tabletop.errors import MapValidationError
from tabletop.rules.dice import FixedDice
from tabletop.rules.fight_phase import FightOptions, fight
from tabletop.rules.fight_phase.eligibility import fight_refusal

TEN = '[rules]\nedition = "10th"\n'


def selected(log):
    return [(e["player"], e["unit"], e["fight"]) for e in log.of_type("selected_to_fight")]


def overrun_pile_ins(log):
    return [e for e in log.of_type("pile_in") if e.rule == "fight-phase.txt 12.06"]


def entered(log):
    return [(e["step"], e["player"]) for e in log.of_type("combat_step")]


# ---------------------------------------------------------------- item 1: 12.04 eligibility
# A line along y = 8:  C (red, charged) at x 4 | V (blue) at 5.26 | S (red, did NOT charge)
# at 6.52 | F (blue, W5) at 11.52.
#  - C-V and V-S touch (centres 1.26" apart): C and S are engaged with V when the Fight step
#    starts, in either preset; nobody can pile in in 12.02 (in base contact, or F: unengaged
#    and did not charge).
#  - F's edge is 11.52 - 6.52 - 1.26 = 3.74" from S's: not engaged (> 2" and > 1"), within
#    the 5" of a pile-in target (12.03), and 3.74 - 3 = 0.74" after a full 3" move, inside
#    both engagement ranges, so an overrun pile-in can end engaged with it.
#  - F is 11.52 - 4 - 1.26 = 6.26" from C: C never reaches it.
# C fights first (charged: Fights First) and kills V: hit 6, wound 6, V's save 1 fails,
# D1 of W1.  S is then unengaged and did not charge.
LINE = unit("C", "red", [(4, 8)], charged=True) + unit("V", "blue", [(5.26, 8)], A=0) \
    + unit("S", "red", [(6.52, 8)]) + unit("F", "blue", [(11.52, 8)], A=0, W=5)


def test_11th_a_unit_engaged_at_the_start_of_the_step_fights_on_with_an_overrun():
    # "11th" (the default preset): S "was engaged at the start of this step", so it stays
    # eligible.  Red: C (Fights First step) kills V.  Blue has no Fights First unit and none
    # is eligible: Remaining Combats, blue (who moved it on) selects next; blue has none
    # eligible (F unengaged, V gone) but S is: red selects S.  Unengaged, its one fight type
    # is overrun (12.06): an additional pile-in toward F (3.74" away: ends within 2"), then
    # attacks F: hit 6, wound 6, F's save 6 holds.  F is now engaged and not yet selected:
    # blue selects it (no weapon, no dice).  Dice: 6, 6, 1 (C) and 6, 6, 6 (S).
    res = fight(state_from(LINE), FixedDice([6, 6, 1, 6, 6, 6]))
    assert [e["unit"] for e in res.log.of_type("destroyed")] == ["V"]
    assert selected(res.log) == [("red", "C", "normal"), ("red", "S", "overrun"),
                                 ("blue", "F", "normal")]
    moves = overrun_pile_ins(res.log)
    assert [e["unit"] for e in moves] == ["S"]
    assert moves[0]["distances"]["S/1"] <= 3.0 + 0.02          # 12.06: a pile-in, at most 3"
    attacks = [e for e in res.log.of_type("attacks_resolved") if e["unit"] == "S"]
    assert [e["target"] for e in attacks] == ["F"]
    from tabletop.geometry import snapshot
    after_pile_in = snapshot(res.state)
    assert after_pile_in.unit_engaged("S")                      # still engaged with F at the end


def test_10th_the_same_unit_loses_eligibility_and_never_piles_in():
    # "10th": only engaged now (or charged) keeps a unit eligible.  Blue (whose turn it is
    # not) starts the Fights First step with none, C is eligible: red selects C, which kills
    # V (6, 6, 1).  Remaining Combats starts with blue: F is unengaged, V gone; S is no
    # longer engaged and did not charge: nobody is eligible, the Fight step ends.  Only
    # three dice are given: a fight by S would exhaust them.
    res = fight(state_from(LINE, rules=TEN), FixedDice([6, 6, 1]))
    assert selected(res.log) == [("red", "C", "normal")]
    assert overrun_pile_ins(res.log) == []
    assert res.state.unit("S").models[0].x == pytest.approx(6.52, abs=1e-9)   # never moved


def test_the_rules_option_overrides_either_preset():
    # The [rules] option, not the edition, decides.  "10th" with the option true: S fights on
    # exactly as in "11th" (order aside, see below), so the same six dice; "11th" with it
    # false: S is dropped as in "10th" (three dice).
    on = '[rules]\nedition = "10th"\nengaged_at_step_start_keeps_eligible = true\n'
    res = fight(state_from(LINE, rules=on), FixedDice([6, 6, 1, 6, 6, 6]))
    # 10th order: FF step starts with blue (none) -> red C; Remaining starts with blue
    # (none eligible) -> red S overruns; then blue F, engaged now (S ended within 1").
    assert selected(res.log) == [("red", "C", "normal"), ("red", "S", "overrun"),
                                 ("blue", "F", "normal")]
    off = '[rules]\nengaged_at_step_start_keeps_eligible = false\n'
    res = fight(state_from(LINE, rules=off), FixedDice([6, 6, 1]))
    assert selected(res.log) == [("red", "C", "normal")]


def test_fight_options_still_override_the_map():
    # fight(options=...) wins over the map's [rules]: the "10th" map with the literal reading.
    res = fight(state_from(LINE, rules=TEN), FixedDice([6, 6, 1, 6, 6, 6]),
                options=FightOptions(engaged_at_step_start_keeps_eligible=True,
                                     fight_order_first="non-active"))
    assert [u for _, u, _ in selected(res.log)] == ["C", "S", "F"]


def test_the_refusal_names_the_option():
    # After V is removed, "10th": S was engaged at the start of the step, is not now.
    ctx = context(state_from(LINE, rules=TEN))
    ctx.engaged_at_fight_start = {"C", "V", "S"}
    ctx.state = ctx.state.without_models(["V/1"])
    assert "engaged_at_step_start_keeps_eligible = false" in fight_refusal(ctx, "S")


# ---------------------------------------------------------------- item 2: who selects first
# Three combats along y = 12, each a red model touching a blue one (centres 1.26" apart).
# From one combat's blue to the next combat's red: 9 - 3.26 - 1.26 = 4.48" edge to edge,
# more than 2": only the touching pairs are engaged, every model is in base contact, so
# nobody moves in the pile-in step.  No weapons: nothing dies; the order is the sequence.
#   y = 12:  R1 (charged) at 2 | B1 (fights-first keyword) at 3.26
#   y = 12:  R2 at 9            | B2 (fights-first keyword) at 10.26
#   y = 12:  R3 at 16           | B3 at 17.26
def _combats():
    def one(uid, player, x, charged=False, ff=False):
        return unit(uid, player, [(x, 12)], charged=charged, A=0, ff=ff)
    return (one("R1", "red", 2, charged=True) + one("B1", "blue", 3.26, ff=True)
            + one("R2", "red", 9) + one("B2", "blue", 10.26, ff=True)
            + one("R3", "red", 16) + one("B3", "blue", 17.26))


def order(log):
    return [(e["player"], e["unit"]) for e in log.of_type("selected_to_fight")]


def test_11th_the_player_whose_turn_it_is_selects_first():
    # 12.04 as written.  Fights First, red first: R1; blue B1; red has no Fights First unit
    # but B2 is eligible: blue selects B2; red has none and none is left: Remaining Combats,
    # red (who moved it on) selects next: R2; blue B3; red R3.
    res = fight(state_from(_combats()), FixedDice([]))
    assert order(res.log) == [("red", "R1"), ("blue", "B1"), ("blue", "B2"),
                              ("red", "R2"), ("blue", "B3"), ("red", "R3")]
    assert entered(res.log) == [("fights_first", "red"), ("remaining", "red"), ("end", "blue")]


def test_10th_the_player_whose_turn_it_is_not_selects_first_in_both_steps():
    # "10th": Fights First starts with blue: B1; red R1; blue B2; red has none and none is
    # left.  Remaining Combats starts with blue again (the text would give it to red, who
    # moved it on): B3; red R2; blue has none but R3 is eligible: red R3.
    res = fight(state_from(_combats(), rules=TEN), FixedDice([]))
    assert order(res.log) == [("blue", "B1"), ("red", "R1"), ("blue", "B2"),
                              ("blue", "B3"), ("red", "R2"), ("red", "R3")]
    assert entered(res.log) == [("fights_first", "blue"), ("remaining", "blue"),
                                ("end", "blue")]
    assert [(e["player"], e["step"]) for e in res.log.of_type("pass")] == [("blue", "remaining")]
    remaining = [e for e in res.log.of_type("combat_step") if e["step"] == "remaining"][0]
    assert remaining["reason"].endswith("the step starts with the player whose turn it is not, "
                                        "fight_order_first = non-active")


def test_the_fight_order_option_overrides_the_preset():
    # "11th" with fight_order_first = "non-active" gives the "10th" order above; "10th" with
    # "active" gives the "11th" one.
    nonactive = '[rules]\nfight_order_first = "non-active"\n'
    res = fight(state_from(_combats(), rules=nonactive), FixedDice([]))
    assert [u for _, u in order(res.log)] == ["B1", "R1", "B2", "B3", "R2", "R3"]
    active = '[rules]\nedition = "10th"\nfight_order_first = "active"\n'
    res = fight(state_from(_combats(), rules=active), FixedDice([]))
    assert [u for _, u in order(res.log)] == ["R1", "B1", "B2", "R2", "B3", "R3"]


def test_10th_a_return_to_fights_first_starts_with_the_non_active_player():
    # R1 (ordinary) touches B1 at y 4; R2 has the fights-first keyword and stands alone at
    # (20, 15), B2 at (26, 15) is 26 - 20 - 1.26 = 4.74" away: not engaged.  "10th": no
    # Fights First unit is eligible, so Remaining Combats starts with blue: B1; red R1.
    # When R1 has fought, B2 is placed touching R2 (21.26, 15), as a move in the phase
    # could: a Fights First unit is eligible, so the sequence returns to Fights First,
    # starting with blue, who has none there: red R2; then Remaining with blue: B2.
    text = unit("R1", "red", [(3, 4)], A=0) + unit("B1", "blue", [(4.26, 4)], A=0) \
        + unit("R2", "red", [(20, 15)], A=0, ff=True) + unit("B2", "blue", [(26, 15)], A=0)
    ctx = context(state_from(text, rules=TEN))

    def fight_then_engage(battlefield, unit_id):
        if unit_id == "R1":
            return battlefield.with_positions({"B2/1": (21.26, 15)})
        return battlefield

    fight_step(ctx, fight_then_engage)
    assert order(ctx.log) == [("blue", "B1"), ("red", "R1"), ("red", "R2"), ("blue", "B2")]
    assert entered(ctx.log) == [("fights_first", "blue"), ("remaining", "blue"),
                                ("fights_first", "blue"), ("remaining", "blue"), ("end", "red")]


# ---------------------------------------------------------------- the [rules] options
def test_presets_set_both_named_defaults():
    eleven, ten = make_config("fight-phase"), make_config("fight-phase", {"edition": "10th"})
    assert (eleven.engaged_at_step_start_keeps_eligible, eleven.fight_order_first) == \
        (True, "active")
    assert (ten.engaged_at_step_start_keeps_eligible, ten.fight_order_first) == \
        (False, "non-active")


@pytest.mark.parametrize("rules, words", [
    ('fight_order_first = "first"', "rules.fight_order_first: unknown fight order 'first'"),
    ('engaged_at_step_start_keeps_eligible = "yes"',
     "rules.engaged_at_step_start_keeps_eligible: input should be a valid boolean"),
])
def test_a_bad_value_is_a_one_line_map_error(rules, words):
    with pytest.raises(MapValidationError) as err:
        state_from(LINE, rules=f"[rules]\n{rules}\n")
    assert len(err.value.problems) == 1 and words in err.value.problems[0]


# ---------------------------------------------------------------- the odds read the map too
def test_odds_follow_the_preset():
    # A duel with no Fights First unit: red A at (4, 8) touches blue B at (5.26, 8); each a
    # Blade A1 (hits on 3+, wounds S4 v T4 on 4+: removes its W1 foe with 4/6 * 3/6 = 1/3),
    # Sv 7 (never rolled).  Whoever selects first in Remaining Combats strikes first: its foe
    # is destroyed with 1/3, itself with (1 - 1/3) * 1/3 = 2/9.  "11th": red (whose turn it
    # is) first; "10th": blue first.
    from fractions import Fraction

    from tabletop.rules.fight_phase import odds as fight_odds
    duel = unit("A", "red", [(4, 8)], Sv=7) + unit("B", "blue", [(5.26, 8)], Sv=7)
    for rules, p_a, p_b in (("", Fraction(2, 9), Fraction(1, 3)),
                            (TEN, Fraction(1, 3), Fraction(2, 9))):
        r = fight_odds(state_from(duel, rules=rules))
        assert r["method"] == "exact"
        rows = {row["unit"]: row for row in r["units"]}
        assert (Fraction(rows["A"]["p_destroyed_exact"]),
                Fraction(rows["B"]["p_destroyed_exact"])) == (p_a, p_b)


# ---------------------------------------------------------------- fight, view --fight/--play
def test_fight_json_follows_the_map_preset(write_map, capsys):
    # `tabletop fight MAP --json` on the three combats of a "10th" map: the order worked out
    # in test_10th_the_player_whose_turn_it_is_not_selects_first_in_both_steps.
    import json

    from fightkit import HEADER

    from tabletop.cli import main
    path = write_map(HEADER.format(rules=TEN) + _combats())
    assert main(["fight", path, "--seed", "1", "--json"]) == 0
    events = json.loads(capsys.readouterr().out)["events"]
    assert [e["unit"] for e in events if e["type"] == "selected_to_fight"] == \
        ["B1", "R1", "B2", "B3", "R2", "R3"]


def test_view_fight_resolves_with_the_map_preset():
    # `view --fight` resolves through fight_cmd.resolve: the "10th" map's order again.
    from tabletop.cli.fight_cmd import resolve
    res = resolve(state_from(_combats(), rules=TEN), seed=1)
    assert [u for _, u in order(res.log)] == ["B1", "R1", "B2", "B3", "R2", "R3"]


def test_view_play_asks_the_non_active_player_first_in_10th():
    # `view --fight --play` (PlaySession): red R1, R2 charged; blue B1, B2 fights-first; two
    # touching pairs 4.48" apart (as above).  Pile-in questions (everyone in base contact) are
    # answered with their defaults; the first "which unit fights next?" goes to blue (whose turn
    # it is not) with B1 and B2 in "10th", to red with R1 and R2 in "11th".
    import time

    from tabletop.app.interactive import PlaySession

    def one(uid, player, x, **kw):
        return unit(uid, player, [(x, 12)], A=0, **kw)
    text = one("R1", "red", 2, charged=True) + one("B1", "blue", 3.26, ff=True) \
        + one("R2", "red", 9, charged=True) + one("B2", "blue", 10.26, ff=True)
    for rules, want in ((TEN, ("blue", ["B1", "B2"])), ("", ("red", ["R1", "R2"]))):
        session = PlaySession(state_from(text, rules=rules), seed=1)
        session.start()
        try:
            end, first = time.monotonic() + 30, None
            while first is None:
                assert time.monotonic() < end, "no fight question came"
                for kind, item in session.poll():
                    if kind == "question" and item.choice == "fight" and first is None:
                        first = item
                    elif kind == "question":
                        item.reply(item.default)
                    assert kind not in ("error", "done"), item
            assert (first.player, first.options) == want
        finally:
            assert session.stop()
