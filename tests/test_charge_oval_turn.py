"""An oval base turns as it charges to land where only a turned oval fits (issue 10 item 1,
landing-fix 2; named default rules/charge_plan.py LANDING_TURN, [rules]
charge_landing_turn; no pivot cost: neither fight-phase.txt nor the presets name one).

Fight-phase 11th: engagement range 2".  Charger c/1: an infantry model on a 75x42mm oval,
facing 0 (long axis along x): half-axes a = 75/25.4/2 = 1.476378" (bounding radius), b =
42/25.4/2 = 0.826772", at (20, 10).  Target t/1: 32mm, r = 0.629921", at (20, 20).
Two ruins flank the way in; each ruin's wall (its ``tall_part``, 0.6 x 3.5 = 2.1 sq in of a
1.9 x 3.5 = 6.65 sq in footprint: share 0.32, a wall) is a post: x 18.3..18.9 and
x 21.1..21.7, y 15.5..19.  Infantry crosses the walls but may not end on them.

Distance (the charger at its facing, straight north): its north edge y 10 + b = 10.826772 to
t/1's south edge y 20 - r = 19.370079: 8.543307"; the roll must reach 8.543307 - 2 =
6.543307": needs 7, P = 21/36 = 7/12; the landing rolls the median of 7..12: 8".
At its own facing the oval is 2a = 2.95" across, wider than the 2.2" between the posts:
every spot near t/1 within 8" is on a post, round them, or too far.  Turned to its path's
heading (90, north) it is 2b = 1.65" across: base contact with t/1 at (20, 20 - r - a -
tol/2) = (20, 17.883701), x span 19.173..20.827 clear of both posts, 7.883701" from
(20, 10) straight north: within the 8" roll.
"""

from __future__ import annotations

import pytest

from tabletop.board.mapfile import load as load_map
from tabletop.rules.charge_plan import landed_state, plan_charge

A, B, R = 75 / 25.4 / 2, 42 / 25.4 / 2, 32 / 25.4 / 2
TOL = 0.02

MAP = """
[map]
name = "oval turn"
ruleset = "fight-phase"
width = 40
depth = 40

[rules]
{rules}

[[players]]
id = "red"
active = true

[[players]]
id = "blue"

[[terrain]]
id = "west"
kind = "ruin"
polygon = [[17, 15.5], [18.9, 15.5], [18.9, 19], [17, 19]]
tall_part = [[18.3, 15.5], [18.9, 15.5], [18.9, 19], [18.3, 19]]

[[terrain]]
id = "east"
kind = "ruin"
polygon = [[21.1, 15.5], [23, 15.5], [23, 19], [21.1, 19]]
tall_part = [[21.1, 15.5], [21.7, 15.5], [21.7, 19], [21.1, 19]]

[[units]]
id = "c"
player = "red"
base = "75x42mm oval"
facing = 0
keywords = ["infantry"]
profile = {{ M = 6, T = 4, Sv = 3, W = 2, Ld = 6, OC = 2 }}
weapons = [{{ name = "Close combat weapon", A = 2, WS = 3, S = 4, AP = 0, D = 1 }}]
models = [[20, 10]]

[[units]]
id = "t"
player = "blue"
base = "32mm"
keywords = ["infantry"]
profile = {{ M = 6, T = 4, Sv = 3, W = 2, Ld = 6, OC = 2 }}
weapons = [{{ name = "Close combat weapon", A = 2, WS = 3, S = 4, AP = 0, D = 1 }}]
models = [[20, 20]]
"""


def test_an_oval_turns_along_its_path_to_land(write_map):
    p = plan_charge(load_map(write_map(MAP.format(rules=""), "oval.toml")), "c", ["t"], 1,
                    fight=False)
    assert p["distance"] == pytest.approx(20 - R - (10 + B), abs=1e-3)    # 8.543307"
    assert p["needed"] == 7 and p["odds_fraction"] == "7/12"              # 6.54" -> 7; 21/36
    assert p["landing_roll"]["inches"] == 8.0                             # median of 7..12
    assert p["landing_legal"], p["landing_problems"]
    x, y = p["landing"]["c/1"]
    # on the contact ring (a polygon ring, so to 1e-2) r + a + tol/2 = 2.116299" round
    # t/1, at the ring spot (36 to a turn, 10 degrees apart) nearest straight south:
    # |x - 20| <= 2.1163 sin 5 = 0.1845
    assert ((x - 20) ** 2 + (y - 20) ** 2) ** 0.5 == pytest.approx(R + A + TOL / 2, abs=1e-2)
    assert abs(x - 20) <= 0.185 and y < 20
    assert p["landing_facings"] == {"c/1": 90.0}                          # its path's heading
    landed = landed_state(load_map(write_map(MAP.format(rules=""), "oval2.toml")), p)
    assert landed.model("c/1").facing_deg == 90.0


def test_a_map_may_keep_facings(write_map):
    # charge_landing_turn = false: at facing 0 the oval fits nowhere engaged within 8"
    path = write_map(MAP.format(rules="charge_landing_turn = false"), "oval.toml")
    p = plan_charge(load_map(path), "c", ["t"], 1, fight=False)
    assert p["needed"] == 7
    assert "landing_facings" not in p
    assert not p["landing_legal"]
