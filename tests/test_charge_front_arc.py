"""Rank-and-flank: a unit may declare a charge only against a target in its front arc
(named default ``[rules] charge_needs_front_arc`` = true, rules/charge.py
CHARGE_NEEDS_FRONT_ARC: rank-and-flank-combat.txt says charges are declared but not
against whom).  The arcs are ``UnitFormation.arc_of``'s: quadrants bounded by lines at
45 degrees from the charger's corners; a point is in the front arc when it is further in
front of the front edge than it is beyond either flank edge or behind the rear edge.

25x25mm bases: B = 25 / 25.4 = 0.984252".  Charger c: 3 files x 1 rank facing +y (90),
front centre (24, 20): front edge y = 20, x 24 - 1.5B = 22.5236 .. 24 + 1.5B = 25.4764;
rear edge y = 20 - B = 19.0157.
"""

from __future__ import annotations

import json

from tabletop.board.mapfile import load as load_map
from tabletop.cli import main
from tabletop.rules.charge_plan import plan_charge, reach_list

B = 25 / 25.4

MAP = """
[map]
name = "front arc"
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
id = "c"
player = "red"
base = "25x25mm"
profile = {{ Move = 4, Skill = 3, Power = 3, Defense = 3, Attacks = 1, Wounds = 1, Discipline = 7 }}
formation = {{ front_centre = [24, 20], facing = 90, files = 3, ranks = 1 }}

# behind: one model facing +y, front centre (24, 14): its centre (24, 14 - B/2 = 13.5079)
# is 19.0157 - 13.5079 = 5.51" behind c's rear edge and within its flanks (x 24): the rear arc
[[units]]
id = "behind"
player = "blue"
base = "25x25mm"
profile = {{ Move = 4, Skill = 3, Power = 3, Defense = 3, Attacks = 1, Wounds = 1, Discipline = 7 }}
formation = {{ front_centre = [24, 14], facing = 90, files = 1, ranks = 1 }}

# ahead30: one model facing -y whose centre is 8" from c's front centre at 30 degrees off
# its front: (24 + 8 sin 30, 20 + 8 cos 30) = (28, 26.9282), so its front centre is
# (28, 26.9282 - B/2 = 26.4361).  In front of the front edge by 6.9282; beyond the right
# flank edge by 28 - 25.4764 = 2.5236 < 6.9282: the front arc
[[units]]
id = "ahead30"
player = "blue"
base = "25x25mm"
profile = {{ Move = 4, Skill = 3, Power = 3, Defense = 3, Attacks = 1, Wounds = 1, Discipline = 7 }}
formation = {{ front_centre = [28, 26.4361], facing = 270, files = 1, ranks = 1 }}
"""


def test_a_target_behind_is_refused_with_the_reason(write_map):
    st = load_map(write_map(MAP.format(rules="")))
    p = plan_charge(st, "c", ["behind"], seed=1)
    assert p["eligible"] is False and "probability" not in p
    assert "front arc" in p["reason"] and "rear" in p["reason"]
    assert p["target"] == "behind"


def test_a_target_30_degrees_off_the_front_is_allowed(write_map):
    st = load_map(write_map(MAP.format(rules="")))
    p = plan_charge(st, "c", ["ahead30"], seed=1, fight=False)
    assert p["eligible"] is True and p["probability"] > 0
    assert "reason" not in p["targets"][0]


def test_the_list_in_reach_leaves_out_a_target_behind(write_map):
    # "behind" is 5.51 - B/2 = 5.02" from c's rear edge: Move 4 + a D6 would reach it, but it
    # may not be declared; ahead30 stays in the list
    st = load_map(write_map(MAP.format(rules="")))
    assert [r["id"] for r in reach_list(st, "c", 1)] == ["ahead30"]


def test_the_option_off_allows_a_target_behind(write_map):
    st = load_map(write_map(MAP.format(rules="charge_needs_front_arc = false")))
    p = plan_charge(st, "c", ["behind"], seed=1, fight=False)
    assert p["eligible"] is True


def test_cli_refuses_with_the_reason_no_odds(write_map, capsys):
    path = write_map(MAP.format(rules=""))
    assert main(["charge", path, "c", "behind"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("c may not charge: behind is not in c's front arc") and "%" not in out
    assert main(["charge", path, "c", "behind", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["eligible"] is False and got["targets"] == [{"id": "behind", "reason": got["reason"]}]
