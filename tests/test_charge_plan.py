"""The charge planner (issue 10 item 1): charge paths round bases and terrain, the roll
needed and its exact odds, several targets, every enemy in reach, refusals, the
rank-and-flank side and landing.  Every expected value is worked by hand below.

32mm bases: r = 32 / 25.4 / 2 = 0.629921"; two of them 9.0" apart edge to edge stand
9.0 + 2r = 10.259843" centre to centre.  2D6: P(>= 7) = 21/36 = 7/12, P(>= 8) = 15/36 = 5/12,
P(>= 10) = 6/36 = 1/6, P(>= 3) = 35/36.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from tabletop.board.mapfile import load as load_map
from tabletop.cli import main
from tabletop.rules import charge as CH
from tabletop.rules.charge_plan import plan_charge

R = 32 / 25.4 / 2          # 0.629921"
GAP9 = 10 + 9.0 + 2 * R    # target x for a 9.0" gap from a charger at x = 10

HEAD = """
[map]
name = "charge plan"
ruleset = "{ruleset}"
width = 40
depth = 40

[rules]
{rules}

[[players]]
id = "red"
active = true

[[players]]
id = "blue"
"""

UNIT = """
[[units]]
id = "{id}"
player = "{player}"
base = "32mm"
keywords = [{keywords}]
profile = {{ M = 6, T = 4, Sv = 3, W = 2, Ld = 6, OC = 2 }}
weapons = [{{ name = "Close combat weapon", A = 2, WS = 3, S = 4, AP = 0, D = 1 }}]
models = [{models}]
"""


def fp_map(write_map, units, *, rules="", terrain="", name="map.toml"):
    text = HEAD.format(ruleset="fight-phase", rules=rules)
    for uid, player, models, *kw in units:
        text += UNIT.format(id=uid, player=player, keywords=", ".join(f'"{k}"' for k in (kw[0] if kw else ["infantry"])),
                            models=", ".join(f"[{x}, {y}]" for x, y in models))
    return write_map(text + terrain, name)


def plan_json(capsys, *argv):
    assert main(["charge", *map(str, argv), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


# --- boundaries ---------------------------------------------------------------------------

@pytest.mark.parametrize("edition,needed,fraction", [("11th", 7, "7/12"), ("10th", 8, "5/12")])
def test_nine_inch_gap_needs_7_in_11th_and_8_in_10th(capsys, write_map, edition, needed, fraction):
    # a 9.0" gap: 11th engagement range 2" -> the roll must reach 9 - 2 = 7 (P 21/36 = 7/12);
    # 10th engagement range 1" -> 9 - 1 = 8 (P 15/36 = 5/12).  "Within" = not more than.
    path = fp_map(write_map, [("c", "red", [(10, 20)]), ("t", "blue", [(GAP9, 20)])],
                  rules=f'edition = "{edition}"')
    p = plan_json(capsys, path, "c", "t")
    assert p["distance"] == pytest.approx(9.0, abs=1e-4)
    assert p["needed"] == needed and p["odds_fraction"] == fraction
    assert p["targets"][0]["needed"] == needed
    assert p["probability"] == pytest.approx(eval(fraction))


def test_tolerance_decides_the_boundary(write_map):
    # 9.015" (within the 0.02" tolerance of 9.0): still a 7; 9.05": an 8 (P 5/12) in 11th
    for gap, needed in ((9.015, 7), (9.05, 8)):
        st = load_map(fp_map(write_map, [("c", "red", [(10, 20)]), ("t", "blue", [(10 + gap + 2 * R, 20)])],
                             name=f"g{gap}.toml"))
        p = plan_charge(st, "c", ["t"], landing=False)
        assert p["needed"] == needed
    assert CH.roll_needed("fight-phase", 7.0 + 0.02, tol=0.02) == 7
    assert CH.roll_needed("fight-phase", 12.5) is None


# --- paths round terrain and bases ---------------------------------------------------------

WALL = """
[[terrain]]
id = "wall"
kind = "impassable"
polygon = [[14.5, 17], [15.5, 17], [15.5, 23], [14.5, 23]]
"""


def test_path_round_a_wall(capsys, write_map):
    # straight the gap is 9.0" (needs 7, 7/12); the wall x 14.5..15.5, y 17..23 is in the way.
    # The centre goes round the wall grown by r: tangent from C (10, 20) to the corner
    # circle at (14.5, 23): sqrt(4.5^2 + 3^2 - r^2) = 5.3715; the arc round both top corners
    # turns 40.379 + 38.650 = 79.029 degrees: 1.3793 rad x r = 0.8689; the top edge 1.0;
    # from (15.5, 23) tangent towards T (20.2598, 20): sqrt(4.7598^2 + 3^2 - r^2) = 5.5910,
    # less the goal radius 2r + 2 = 3.2598: 2.3312.  Path 9.5715" -> needs 10: 6/36 = 1/6.
    path = fp_map(write_map, [("c", "red", [(10, 20)]), ("t", "blue", [(GAP9, 20)])], terrain=WALL)
    p = plan_json(capsys, path, "c", "t")
    assert p["needs"] == pytest.approx(9.5715, abs=0.02)
    assert p["distance"] == pytest.approx(11.5715, abs=0.02)
    assert p["needed"] == 10 and p["odds_fraction"] == "1/6"
    assert max(abs(y - 20) for _, y in p["path"]) > 3.5   # round an end of the wall (y 17 or 23)


def test_a_wall_of_woods_is_crossed(write_map):
    # woods are crossed (CHARGE_BLOCKING_KINDS): the straight 9.0" gap, a 7
    st = load_map(fp_map(write_map, [("c", "red", [(10, 20)]), ("t", "blue", [(GAP9, 20)])],
                         terrain=WALL.replace("impassable", "woods")))
    assert plan_charge(st, "c", ["t"], landing=False)["needed"] == 7


RUIN = """
[[terrain]]
id = "ruin"
kind = "ruin"
polygon = [[13, 15], [17, 15], [17, 25], [13, 25]]
tall_part = [[14.5, 17], [15.5, 17], [15.5, 23], [14.5, 23]]
"""


def test_ruin_walls_stop_a_vehicle_not_infantry(write_map):
    # CHARGE_RUIN_WALLS "non-infantry": the ruin's tall part (the wall of the test above)
    # blocks a vehicle (path 9.5715, needs 10) and lets infantry through (needs 7)
    for kw, needed in ((["infantry"], 7), (["vehicle"], 10)):
        st = load_map(fp_map(write_map, [("c", "red", [(10, 20)], kw), ("t", "blue", [(GAP9, 20)])],
                             terrain=RUIN, name=f"{kw[0]}.toml"))
        assert plan_charge(st, "c", ["t"], landing=False)["needed"] == needed
    # charge_ruin_walls = "all": the walls stop infantry too
    st = load_map(fp_map(write_map, [("c", "red", [(10, 20)]), ("t", "blue", [(GAP9, 20)])],
                         terrain=RUIN, rules='charge_ruin_walls = "all"', name="all.toml"))
    assert plan_charge(st, "c", ["t"], landing=False)["needed"] == 10


def test_path_round_a_line_of_enemy_bases(write_map):
    # a screen of 5 enemy bases at x = 15, y = 17.46 .. 22.54 (1.27" apart: their grown
    # shapes merge) stands between.  Round the top one S (15, 22.54), grown by r to 2r:
    # tangent from C: sqrt(5^2 + 2.54^2 - (2r)^2) = 5.4648; arc turning 39.913 + 38.232 =
    # 78.145 deg = 1.3639 rad x 2r = 1.7183; tangent from S towards T: sqrt(5.2598^2 +
    # 2.54^2 - (2r)^2) = 5.7035, less 3.2598: 2.4437.  Path 9.6268" -> needs 10: 1/6
    # (straight it would be 7: 7/12).  charge_avoid_undeclared = false: the path round the
    # bases themselves (with it, round their engagement range: test_charge_avoid_undeclared.py)
    screen = [(15, 20 + 1.27 * k) for k in range(-2, 3)]
    st = load_map(fp_map(write_map, [("c", "red", [(10, 20)]), ("t", "blue", [(GAP9, 20)]),
                                     ("s", "blue", screen)], rules="charge_avoid_undeclared = false"))
    p = plan_charge(st, "c", ["t"], landing=False)
    assert p["needs"] == pytest.approx(9.6268, abs=0.02)
    assert p["needed"] == 10 and p["odds_fraction"] == "1/6"
    assert p["targets"][0]["straight"] == pytest.approx(9.0, abs=1e-4)


# --- several targets, every target in reach --------------------------------------------------

def test_several_targets_the_farthest_decides(capsys, write_map):
    # t1 5.0" east (path 5 - 2 = 3: needs 3, 35/36), t2 9.0" north (path 7: 7/12).  The
    # unit must end engaged with both: the roll must reach 7 -> 7/12.
    path = fp_map(write_map, [("c", "red", [(10, 20)]), ("t1", "blue", [(10 + 5 + 2 * R, 20)]),
                              ("t2", "blue", [(10, 20 + 9 + 2 * R)])])
    p = plan_json(capsys, path, "c", "t1", "t2")
    rows = {t["id"]: t for t in p["targets"]}
    assert rows["t1"]["needed"] == 3 and rows["t1"]["probability"] == pytest.approx(35 / 36)
    assert rows["t2"]["needed"] == 7 and rows["t2"]["probability"] == pytest.approx(7 / 12)
    assert p["needed"] == 7 and p["odds_fraction"] == "7/12" and p["target"] == "t2"


def test_without_target_every_enemy_in_reach_best_first(capsys, write_map):
    # t1 5.0" (3: 35/36), t2 9.0" (7: 7/12), t3 14.5" east (12.5 > 12: out of reach)
    path = fp_map(write_map, [("c", "red", [(10, 20)]), ("t1", "blue", [(10 + 5 + 2 * R, 20)]),
                              ("t2", "blue", [(10, 20 + 9 + 2 * R)]),
                              ("t3", "blue", [(10 + 14.5 + 2 * R, 20)])])
    p = plan_json(capsys, path, "c")
    assert [r["id"] for r in p["in_reach"]] == ["t1", "t2"]
    assert [r["needed"] for r in p["in_reach"]] == [3, 7]
    assert main(["charge", path, "c"]) == 0
    assert "t1: 5.00\"" in capsys.readouterr().out


# --- refusals --------------------------------------------------------------------------------

def test_an_engaged_unit_is_refused_with_no_odds(capsys, write_map):
    # c is 1.5" from e (within 2" engagement range, 11th): it may not declare a charge
    path = fp_map(write_map, [("c", "red", [(10, 20)]), ("e", "blue", [(10 + 1.5 + 2 * R, 20)]),
                              ("t", "blue", [(10, 20 + 9 + 2 * R)])])
    p = plan_json(capsys, path, "c", "t")
    assert p["eligible"] is False and "engagement range of e" in p["reason"]
    assert "probability" not in p and "odds" not in p
    assert main(["charge", path, "c", "t"]) == 0
    assert "c may not charge" in capsys.readouterr().out
    # 10th: engagement range 1", so 1.5" is not engaged: it may charge
    path = fp_map(write_map, [("c", "red", [(10, 20)]), ("e", "blue", [(10 + 1.5 + 2 * R, 20)])],
                  rules='edition = "10th"', name="tenth.toml")
    assert plan_json(capsys, path, "c", "e")["eligible"] is True


def test_a_fleeing_unit_is_refused(write_map):
    text = open(fp_map(write_map, [("c", "red", [(10, 20)]), ("t", "blue", [(GAP9, 20)])])).read()
    text = text.replace('id = "c"\n', 'id = "c"\nstatus = ["fleeing"]\n')
    st = load_map(write_map(text, "flee.toml"))
    p = plan_charge(st, "c", ["t"])
    assert p == {"unit": "c", "ruleset": "fight-phase", "eligible": False, "reason": p["reason"]}
    assert "fleeing" in p["reason"]


# --- landing and the fight ------------------------------------------------------------------

def test_landing_is_engaged_and_overlaps_nothing(write_map):
    # 3 marines 5" from 3 targets: the median roll that makes a 3" path is 7 (rolls 3..12
    # weigh 2,3,4,5,6,5,4,3,2,1 of 35: the 18th of 35 is a 7); every model reaches base contact
    from tabletop.geometry import snapshot
    st = load_map(fp_map(write_map, [("c", "red", [(10, 19), (10, 20.3), (10, 21.6)]),
                                     ("t", "blue", [(16.3, 19), (16.3, 20.3), (16.3, 21.6)])]))
    p = plan_charge(st, "c", ["t"], fight=True)
    assert p["landing_roll"] == {"how": "median", "inches": 7.0}
    landed = st.with_positions({m: tuple(xy) for m, xy in p["landing"].items()})
    geo = snapshot(landed)
    assert geo.overlaps == []
    assert all(geo.model_engaged(m) for m in p["landing"])
    assert p["landing_engaged"] == ["t"]
    assert p["fight"]["method"] == "exact" and set(p["fight"]["units"]) == {"c", "t"}


# --- rank-and-flank: arc and the flush landing ------------------------------------------------

RNF = """
[map]
name = "rnf charge"
ruleset = "rank-and-flank"
width = 48
depth = 48

[rules]
{rules}

[[players]]
id = "red"
active = true

[[players]]
id = "blue"

[[units]]
id = "a"
player = "blue"
base = "25x25mm"
profile = {{ Move = 4, Skill = 3, Power = 3, Defense = 3, Attacks = 1, Wounds = 1, Discipline = 7 }}
formation = {{ front_centre = [24, 24], facing = 90, files = 5, ranks = 2 }}

[[units]]
id = "w"
player = "red"
base = "25x25mm"
profile = {{ Move = 4, Skill = 3, Power = 3, Defense = 3, Attacks = 1, Wounds = 1, Discipline = 7 }}
formation = {{ front_centre = [{x}, {y}], facing = {facing}, files = {files}, ranks = 1 }}
"""
B = 25 / 25.4     # 0.984252"


def test_rank_and_flank_arc_majority_and_flush_landing(write_map):
    # a (5 files x 2 ranks facing +y, front centre (24, 24)): its right flank edge is
    # x = 24 + 2.5B = 26.4606, spanning y 24 - 2B .. 24.  w (2 files facing -x) stands
    # 7.5" off that edge, both its front-rank models in a's right arc: side "right";
    # Move 4 + the higher D6 >= 7.5: the higher die 4+: 1 - (3/6)^2 = 3/4.
    x = 24 + 2.5 * B + 7.5
    st = load_map(write_map(RNF.format(rules="", x=x, y=23, facing=180, files=2)))
    p = plan_charge(st, "w", ["a"], seed=1)
    assert p["side"] == "right" and p["needed"] == 4 and p["odds_fraction"] == "3/4"
    # closing the door: flush on a's right edge, facing 180 (into it): front edge x =
    # 26.4606 + tol/2 = 26.4706, so model centres at x + B/2 = 26.9627; the block's front
    # centre is opposite w's own (y = 23) clamped so w (2B wide) stays on the edge (y from
    # 24 - 2B = 22.0315 to 24, also 2B long): the edge's middle, 24 - B = 23.0157; the two
    # models at 23.0157 -/+ B/2 = 22.5236, 23.5079
    xs = {round(v[0], 3) for v in p["landing"].values()}
    assert xs == {round(24 + 2.5 * B + 0.01 + B / 2, 3)}
    ys = sorted(v[1] for v in p["landing"].values())
    assert ys == pytest.approx([24 - 1.5 * B, 24 - 0.5 * B], abs=1e-3)
    from tabletop.geometry import snapshot
    landed = st.with_positions({m: tuple(xy) for m, xy in p["landing"].items()})
    geo = snapshot(landed)
    assert geo.unit_engaged("w") and geo.overlaps == []


def test_rank_and_flank_arc_tie(write_map):
    # w's front rank of 4 (facing -y) centred 2.5 + 2.5B left of a's front centre, 2" in
    # front of it: 2 of its models in a's front arc, 2 in its left arc (the arc line
    # from a's front-left corner at 45 degrees runs between them) -> a tie.
    # "front-edge centre": w's front centre (24 - 2.5B - 2.5, 26) is in the left arc
    # (it is 4.96" left of the corner and 2" above it: below the 45 degree line).
    x = 24 - 2.5 * B - 2.5
    st = load_map(write_map(RNF.format(rules='charge_arc_tie = "front-edge centre"', x=x, y=26,
                                       facing=270, files=4)))
    p = plan_charge(st, "w", ["a"], seed=5, landing=False)
    assert p["side"] == "left"
    st = load_map(write_map(RNF.format(rules="", x=x, y=26, facing=270, files=4), "roll.toml"))
    p = plan_charge(st, "w", ["a"], seed=5, landing=False)
    assert p["_arc"].tied == ("front", "left") and p["_arc"].how == "roll" and p["side"] in ("front", "left")


# --- odds on the table ------------------------------------------------------------------------

def test_odds_grid_on_open_table_and_behind_a_wall(write_map):
    # open table: a point 7.0" from c's centre (path 7) has P(2D6 >= 7) = 7/12; 13" away: 0.
    # Behind the wall (x 14.5..15.5, y 17..23) the point (17, 20), 7" straight, is reached
    # round the top (or bottom) corners: tangent 5.3716; the path turns from 40.379 deg
    # to -(63.435 + 10.832) = -74.267 deg: 114.646 deg = 2.0009 rad x r = 1.2604; the edge
    # 1.0; tangent to the point sqrt(1.5^2 + 3^2 - r^2) = 3.2944.  10.9264" -> an 11: 3/36
    # = 1/12 (the 7" straight line would give 7/12)
    from tabletop.rules.charge_plan import odds_grid
    st = load_map(fp_map(write_map, [("c", "red", [(10, 20)])], terrain=WALL))
    pts = np.asarray([[10, 27], [10, 33], [17, 20]], dtype=float)
    probs, lengths = odds_grid(st, "c", pts)
    assert probs[0] == pytest.approx(7 / 12) and lengths[0] == pytest.approx(7.0, abs=1e-6)
    assert probs[1] == 0.0
    assert lengths[2] == pytest.approx(10.9264, abs=0.02) and probs[2] == pytest.approx(1 / 12)
