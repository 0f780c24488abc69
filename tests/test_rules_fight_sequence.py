"""The 12.04 alternation, worked by hand from fight-phase.txt.

Each unit is one 32mm model; engaged pairs stand in base contact (centres
1.26" apart) so nobody moves in the pile-in step, and pairs are 6" apart so
no unit is within 5" of another pair.  No unit has a weapon, so nothing dies
and the order of selection is the sequence alone.  Red is the player whose
turn it is.
"""

from __future__ import annotations

import dataclasses

from fightkit import context, fight_step, state_from, unit
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.board.state import Decision
from tabletop.rules.dice import FixedDice
from tabletop.rules.fight_phase import fight


def seq_unit(uid, player, x, y, charged=False, ff=False):
    return unit(uid, player, [(x, y)], charged=charged, A=0, ff=ff)


def pair(red, blue, y):
    """``red`` at (5, y) touching ``blue`` at (6.26, y)."""
    return seq_unit(red[0], red[1], 5, y, *red[2:]) + seq_unit(blue[0], blue[1], 6.26, y, *blue[2:])


def order(log):
    return [(e["player"], e["unit"]) for e in log.of_type("selected_to_fight")]


def test_fights_first_alternates_then_remaining_starts_with_the_player_who_moved_it_on():
    # Red: R1 charged, R2 fights-first, R3 ordinary.  Blue: B1 fights-first, B2, B3 ordinary.
    # Fights First, red first: R1; blue B1; red R2; blue has none and no Fights First unit is
    # eligible -> Remaining Combats, blue selects next: B2; red R3; blue B3.
    text = "".join(seq_unit(*u) for u in [
        ("R1", "red", 5, 3, True), ("R2", "red", 5, 9, False, True), ("R3", "red", 5, 15),
        ("B2", "blue", 6.26, 3), ("B3", "blue", 6.26, 9), ("B1", "blue", 6.26, 15, False, True)])
    res = fight(state_from(text), FixedDice([]))
    assert order(res.log) == [("red", "R1"), ("blue", "B1"), ("red", "R2"),
                              ("blue", "B2"), ("red", "R3"), ("blue", "B3")]
    steps = [(e["step"], e["player"]) for e in res.log.of_type("combat_step")]
    assert steps == [("fights_first", "red"), ("remaining", "blue"), ("end", "red")]
    assert [e["fights_first"] for e in res.log.of_type("selected_to_fight")] == \
        [True, True, True, False, False, False]


def test_two_red_chargers_one_blue_fights_first():
    # Red R1, R2 charged, R3 ordinary; blue B3 fights-first, B1, B2 ordinary.
    # FF: red R1; blue B3; red R2; blue none, none left -> Remaining with blue: B1; red R3; blue B2.
    text = pair(("R1", "red", True), ("B1", "blue"), 3) + pair(("R2", "red", True), ("B2", "blue"), 9) \
        + pair(("R3", "red"), ("B3", "blue", False, True), 15)
    res = fight(state_from(text), FixedDice([]))
    assert order(res.log) == [("red", "R1"), ("blue", "B3"), ("red", "R2"),
                              ("blue", "B1"), ("red", "R3"), ("blue", "B2")]


def test_the_other_player_selects_while_fights_first_units_remain():
    # Red R1 charged, R2 and R3 ordinary; blue B1, B2 fights-first, B3 ordinary.
    # FF: red R1; blue B1; red has no Fights First unit but B2 is eligible -> blue selects B2;
    # red has none and none is left -> Remaining with red: R2; blue B3; red R3.
    text = pair(("R1", "red", True), ("B1", "blue", False, True), 3) \
        + pair(("R2", "red"), ("B2", "blue", False, True), 9) + pair(("R3", "red"), ("B3", "blue"), 15)
    res = fight(state_from(text), FixedDice([]))
    assert order(res.log) == [("red", "R1"), ("blue", "B1"), ("blue", "B2"),
                              ("red", "R2"), ("blue", "B3"), ("red", "R3")]
    assert [(e["player"], e["step"]) for e in res.log.of_type("pass")] == [("red", "fights_first")]


def test_scripted_choice_of_unit_and_an_illegal_one_is_overridden():
    text = pair(("R1", "red", True), ("B1", "blue"), 3) + pair(("R2", "red", True), ("B2", "blue"), 9)
    extra = """
[[decisions]]
player = "red"
choice = "fight"
value = "R2"
"""
    # (a map file naming the enemy's unit is refused when it loads, board/decision_checks.py:
    # blue's entry is given in code, to test the rules' own refusal)
    s = state_from(text, extra=extra)
    s = dataclasses.replace(s, decisions=s.decisions + (Decision("blue", "fight", "R1"),))
    res = fight(s, FixedDice([]))
    # FF: red's scripted R2 first; blue has no Fights First unit but R1 is eligible, so red
    # selects again (R1, the default).  Remaining Combats with blue: blue's scripted "R1" is
    # not one of blue's eligible units: overridden, the default B1 answers; red has none
    # left (passes); blue B2.
    assert order(res.log) == [("red", "R2"), ("red", "R1"), ("blue", "B1"), ("blue", "B2")]
    over = res.log.of_type("decision_overridden")
    assert [(e["player"], e["value"]) for e in over] == [("blue", "R1")]


def test_return_to_fights_first_after_a_remaining_combat():
    # R1 (ordinary) touches B1.  R2 has the fights-first keyword and stands alone at (20, 15);
    # B2 is at (26, 15), out of reach.  When R1 fights (Remaining Combats, red first since
    # nobody is Fights First), B2 is placed touching R2 (as an overrun could): R2 is now an
    # eligible Fights First unit, so the sequence returns to Fights First starting with red
    # (the player whose turn it is): red selects R2 straight after R1.  Then blue: B1, B2.
    text = pair(("R1", "red"), ("B1", "blue"), 3) + seq_unit("R2", "red", 20, 15, False, True) \
        + seq_unit("B2", "blue", 26, 15)
    ctx = context(state_from(text))

    def fight_then_engage(battlefield, unit_id):
        if unit_id == "R1":
            return battlefield.with_positions({"B2/1": (21.26, 15)})
        return battlefield

    fight_step(ctx, fight_then_engage)
    assert order(ctx.log) == [("red", "R1"), ("red", "R2"), ("blue", "B1"), ("blue", "B2")]
    entered = [(e["step"], e["player"]) for e in ctx.log.of_type("combat_step")]
    assert entered == [("fights_first", "red"), ("remaining", "red"), ("fights_first", "red"),
                       ("remaining", "blue"), ("end", "red")]


def _reading(units, active="red"):
    """12.04 read directly, for units that all stay eligible (no one dies, nobody moves):
    Fights First units alternate starting with ``active``; a player with none passes to the
    other; when none is left, Remaining Combats start with the player who would select next."""
    other = {"red": "blue", "blue": "red"}
    out, p = [], active
    for ff in (True, False):
        pool = {pl: [u for u, owner, f in units if owner == pl and f == ff] for pl in other}
        while pool["red"] or pool["blue"]:
            if pool[p]:
                out.append((p, pool[p].pop(0)))
            p = other[p]
    return out


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["none", "charged", "keyword"]),
                          st.sampled_from(["none", "charged", "keyword"])), min_size=1, max_size=4))
def test_alternation_matches_the_text_for_any_mix(flags):
    # Pair k: red Rk at (5, 3 + 4k) touching blue Bk; flags give each side's Fights First source.
    text, units = "", []
    for k, (rf, bf) in enumerate(flags):
        y = 2 + 4 * k
        text += seq_unit(f"R{k}", "red", 5, y, rf == "charged", rf == "keyword")
        text += seq_unit(f"B{k}", "blue", 6.26, y, bf == "charged", bf == "keyword")
        units += [(f"R{k}", "red", rf != "none"), (f"B{k}", "blue", bf != "none")]
    order_of = {u: k for k, (u, _, _) in enumerate(units)}
    units.sort(key=lambda u: (u[1] == "blue", order_of[u[0]]))       # file order per player
    ctx = context(state_from(text))
    fight_step(ctx)
    assert order(ctx.log) == _reading(units)
