"""Making Attacks (the standard sequence fight-phase.txt 12.05/12.06 cite): hand-worked with FixedDice.

A 32mm base has radius 32 / 25.4 / 2 = 0.62992"; two touch when their centres
are 1.25984" apart.  Engagement range is 2" (the "11th" preset) unless said.
"""

from __future__ import annotations

import pytest
from fightkit import context, resolve_attacks, state_from, types
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.errors import MapValidationError
from tabletop.geometry import snapshot
from tabletop.geometry.removal import removal_order
from tabletop.rules.dice import FixedDice
from tabletop.rules.fight_phase import fight
from tabletop.rules.fight_phase.attacks import (
    save_needed,
    which_models_fight,
    wound_target,
)
from tabletop.rules.fight_phase.profiles import DiceExpr, parse_amount

# b/1 touches a/1 (centres 1.26" apart: gap 0.00016"); b/2 is 0.48" past b/1,
# b/3 0.64" past b/2.  b/1 to b/3: 3.64 - 1.26 = 2.38" > 2", so removing b/2
# would break coherency; b/3 is farthest from a/1 (edge to edge 14.9 - 10 - 1.26
# = 3.64").
LINE = """
[[units]]
id = "a"
player = "red"
base = "32mm"
profile = {{ T = 4, Sv = 3, W = 2 }}
weapons = [{{ name = "Blade", A = {A}, WS = 3, S = 4, AP = {AP}, D = {D} }}]
models = [[10, 10]]

[[units]]
id = "b"
player = "blue"
base = "32mm"
profile = {{ T = 4, Sv = {Sv}, W = {W}{inv} }}
weapons = []
models = [[11.26, 10], [13.0, 10], [14.9, 10]]
"""


def line(A=3, AP=-1, D=1, Sv=3, W=2, inv=""):
    return state_from(LINE.format(A=A, AP=AP, D=D, Sv=Sv, W=W, inv=inv))


def test_wound_table_from_strength_against_toughness():
    # S >= 2T: 2+; S > T: 3+; S == T: 4+; S <= T/2: 6+; else 5+
    assert wound_target(8, 4) == 2
    assert wound_target(10, 5) == 2
    assert wound_target(7, 4) == 3      # 7 > 4 but 7 < 8
    assert wound_target(5, 4) == 3
    assert wound_target(4, 4) == 4
    assert wound_target(3, 4) == 5
    assert wound_target(4, 7) == 5      # 4 < 7, 2 * 4 = 8 > 7
    assert wound_target(2, 4) == 6
    assert wound_target(3, 6) == 6      # 3 <= 6 / 2


def test_save_needed_applies_ap_and_takes_a_better_invulnerable():
    assert save_needed(3, 0, None) == (3, "armour")
    assert save_needed(3, -1, None) == (4, "armour")     # Sv 3 - AP -1 = 4+
    assert save_needed(3, -3, 4) == (4, "invulnerable")  # armour 6+ against invulnerable 4+
    assert save_needed(2, -1, 4) == (3, "armour")        # armour 3+ is better than 4+
    assert save_needed(6, -1, None) == (7, "armour")     # no save possible


def test_amounts_parse_numbers_and_dice():
    assert parse_amount(3) == 3
    assert parse_amount("2") == 2
    assert parse_amount("D3") == DiceExpr(1, 3, 0)
    assert parse_amount("2D6") == DiceExpr(2, 6, 0)
    assert parse_amount("D6+1") == DiceExpr(1, 6, 1)
    with pytest.raises(ValueError, match="'x'"):
        parse_amount("x")


def test_removal_order_keeps_coherency_then_farthest_from_the_enemy():
    geo = snapshot(line())
    # removing b/2 leaves b/1 and b/3 2.38" apart: last.  b/3 is 3.64" from a/1, b/1 touches it.
    assert removal_order(geo, "b") == ["b/3", "b/1", "b/2"]


def test_hits_wounds_saves_damage_and_the_wounded_model_first():
    state = line()
    # hit roll 3 dice, WS 3+: 6 hits, 3 hits, 1 fails -> 2 hits
    # wound roll S4 v T4 needs 4+: 4, 6 -> 2 wounds
    # every b model saves alike (Sv3 AP-1 needs 4+), so both saves are rolled together
    # (FAST_SAVES): 3 and 1, both fail.  Failed wound 1 -> b/3 (removal order); D1 -> 1 lost
    # of 2; failed wound 2 -> b/3 again (already wounded); D1 -> 2 lost: removed
    ctx = context(state, [6, 3, 1, 4, 6, 3, 1])
    resolve_attacks(ctx, "a")
    rolls = ctx.log.of_type("roll")
    assert [r["result"] for r in rolls] == [2, 2, "2 failed"]
    assert [r["dice"] for r in rolls][2] == [3, 1]
    assert [r["target"] for r in rolls] == [3, 4, 4]
    assert [r["player"] for r in rolls] == ["red", "red", "blue"]
    assert rolls[2]["modifiers"] == {"AP": -1}
    assert [(w["model"], w["wounds_lost"], w["wounds_left"]) for w in ctx.log.of_type("wounded")] \
        == [("b/3", 1, 1), ("b/3", 2, 0)]
    assert [e["model"] for e in ctx.log.of_type("removed")] == ["b/3"]
    assert [m.id for m in ctx.state.unit("b").models] == ["b/1", "b/2"]
    assert ctx.dice.remaining == []
    summary = ctx.log.of_type("attacks_resolved")[0]
    assert (summary["attacks"], summary["hits"], summary["wounds"], summary["unsaved"]) == (3, 2, 2, 2)


def test_a_wounded_model_takes_the_next_wound_and_wounds_lost_are_written():
    state = line(A=1)
    b2 = state.model("b/2")
    from dataclasses import replace
    state = state.with_models([replace(b2, wounds_lost=1)])
    # 1 attack: hit 4, wound 5 (4+), allocated to b/2 (wounded) not b/3; save 2 fails (4+); D1
    ctx = context(state, [4, 5, 2])
    resolve_attacks(ctx, "a")
    assert [e["model"] for e in ctx.log.of_type("removed")] == ["b/2"]


def test_a_wound_that_does_not_kill_is_recorded_on_the_model():
    ctx = context(line(A=1), [6, 6, 3])
    resolve_attacks(ctx, "a")
    assert ctx.state.model("b/3").wounds_lost == 1
    assert ctx.log.of_type("removed") == []


def test_invulnerable_save_ignores_ap():
    # AP -3: armour 3 + 3 = 6+, invulnerable 4+ is better; a 4 saves
    ctx = context(line(A=1, AP=-3, inv=", Inv = 4"), [6, 6, 4])
    resolve_attacks(ctx, "a")
    save = ctx.log.of_type("roll")[2]
    assert (save["target"], save["modifiers"], save["result"]) == (4, {}, "saved")
    assert "invulnerable" in save["purpose"]


def test_no_save_possible_and_dice_characteristics():
    # A D3: a 5 halved rounding up = 3 attacks; hits 2 (fails), 3, 4 -> 2 hits; wounds 4, 3 -> 1
    # Sv 6 with AP -1 needs 7+: not rolled (no_save); damage D6+1: 5 + 1 = 6 of W 10 -> 4 left
    ctx = context(line(A='"D3"', D='"D6+1"', Sv=6, W=10), [5, 2, 3, 4, 4, 3, 5])
    resolve_attacks(ctx, "a")
    assert [e["model"] for e in ctx.log.of_type("no_save")] == ["b/3"]
    assert ctx.log.of_type("wounded")[0]["damage"] == 6
    assert ctx.state.model("b/3").wounds_lost == 6
    assert ctx.dice.remaining == []


def test_unit_destroyed_and_the_remaining_wounds_are_lost():
    state = state_from(LINE.format(A=3, AP=0, D=1, Sv=3, W=1, inv="")
                       .replace("models = [[11.26, 10], [13.0, 10], [14.9, 10]]",
                                "models = [[11.26, 10]]"))
    # 3 hits, 3 wounds; the 3 saves rolled together (FAST_SAVES) fail (1, 1, 1): the first
    # failed wound removes b/1, b is destroyed, the other 2 are lost
    ctx = context(state, [6, 6, 6, 6, 6, 6, 1, 1, 1])
    resolve_attacks(ctx, "a")
    assert types(ctx.log)[-3:] == ["removed", "destroyed", "attacks_resolved"]
    assert not ctx.state.has_unit("b")
    assert ctx.dice.remaining == []


def test_which_models_fight_counts_base_contact_support():
    # "10th" preset: engagement range 1".  e/1 at (10, 10); a/1 touches it; a/2 touches a/1
    # but is 2.52 - 1.26 = 1.26" from e/1 (> 1"): fights through a/1.  a/3 is 2 - 1.26 = 0.74"
    # from a/1 (no contact) and sqrt(1.26^2 + 2^2) - 1.26 = 1.10" from e/1: does not fight.
    state = state_from("""
        [[units]]
        id = "e"
        player = "blue"
        base = "32mm"
        profile = { T = 4, Sv = 3, W = 1 }
        models = [[10, 10]]

        [[units]]
        id = "a"
        player = "red"
        base = "32mm"
        profile = { T = 4, Sv = 3, W = 1 }
        models = [[11.26, 10], [12.52, 10], [11.26, 12.0]]
    """, rules='[rules]\nedition = "10th"\n')
    assert which_models_fight(snapshot(state), "a") == {"a/1": ["e"], "a/2": ["e"]}


def test_missing_profile_is_reported_at_its_place():
    state = state_from("""
        [[units]]
        id = "a"
        player = "red"
        base = "32mm"
        profile = { T = 4, W = 1 }
        weapons = [{ name = "Blade", A = "x", WS = 3, S = 4, AP = 0, D = 1 }]
        models = [[10, 10]]
    """)
    with pytest.raises(MapValidationError) as exc:
        fight(state, FixedDice([]))
    assert exc.value.problems == [
        "test.toml: units[0].profile.Sv: missing (needed to make attacks)",
        ("test.toml: units[0].weapons[0].A: must be a whole number or dice such as \"D3\" or "
         "\"D6+1\", got 'x'"),
    ]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.floats(2, 28), st.floats(2, 18)), min_size=3, max_size=7))
def test_removing_the_first_in_order_keeps_coherency_when_any_removal_can(points):
    models = ", ".join(f"[{x:.3f}, {y:.3f}]" for x, y in points)
    state = state_from(f"""
        [[units]]
        id = "u"
        player = "blue"
        base = "25mm"
        profile = {{ T = 4, Sv = 3, W = 1 }}
        models = [{models}]

        [[units]]
        id = "e"
        player = "red"
        base = "25mm"
        profile = {{ T = 4, Sv = 3, W = 1 }}
        models = [[1, 1]]
    """)
    geo = snapshot(state)
    order = removal_order(geo, "u")
    assert sorted(order) == sorted(geo.unit_models("u"))
    keeps = [m for m in order if snapshot(state.without_models([m])).in_coherency("u")]
    if keeps:
        assert snapshot(state.without_models([order[0]])).in_coherency("u")


def test_mixed_saves_are_rolled_one_wound_at_a_time():
    # b/3 has a 4+ invulnerable save, b/1 and b/2 do not: the unit saves unalike, so each
    # wound is allocated and saved on its own (FAST_SAVES does not apply).  AP -3: armour
    # 3 + 3 = 6+ for b/1, b/2; b/3 (first in removal order, farthest) takes the 4+
    # invulnerable.  2 hits (6, 6), 2 wounds (6, 6); save 1 on b/3: 4 saves; save 2 on b/3:
    # 4 saves.
    state = state_from(LINE.format(A=2, AP=-3, D=1, Sv=3, W=2, inv="").replace(
        "models = [[11.26, 10], [13.0, 10], [14.9, 10]]",
        "models = [[11.26, 10], [13.0, 10], { at = [14.9, 10], profile = "
        "{ T = 4, Sv = 3, W = 2, Inv = 4 } }]"))
    ctx = context(state, [6, 6, 6, 6, 4, 4])
    resolve_attacks(ctx, "a")
    saves = [r for r in ctx.log.of_type("roll") if "save" in r["purpose"]]
    assert [(r["purpose"], r["dice"], r["result"]) for r in saves] == [
        ("invulnerable save: b/3", [4], "saved"), ("invulnerable save: b/3", [4], "saved")]
    assert ctx.dice.remaining == []
