"""A new user's audit of ``tabletop charge``: bad numbers and words at load, the same target
twice, a target off the table, a missing -o folder, the usage line without UNIT, the
landing drawn at its own facing, landing problems in the picture, and a path that ends
within engagement range of a unit that was not declared.  Expected values worked by hand.

32mm bases: r = 32 / 25.4 / 2 = 0.629921".
"""

from __future__ import annotations

import json
import os

import pytest

from tabletop.board.mapfile import load as load_map
from tabletop.cli import main

FP = """
[map]
name = "audit"
ruleset = "fight-phase"
width = 30
depth = 20
[rules]
{rules}
[[players]]
id = "red"
active = true
[[players]]
id = "blue"
[[units]]
id = "a"
player = "red"
base = "32mm"
keywords = ["infantry"]
profile = {{ M = {m}, T = 4, Sv = 3, W = 2 }}
weapons = [{{ name = "CCW", A = 3, WS = 3, S = 4, AP = 0, D = 1 }}]
models = [[5, 10]]
{status}
[[units]]
id = "b"
player = "blue"
base = "32mm"
keywords = ["infantry"]
profile = {{ M = 6, T = 4, Sv = 3, W = 2 }}
weapons = [{{ name = "CCW", A = 3, WS = 3, S = 4, AP = 0, D = 1 }}]
models = [[{bx}, 10]]
"""


def fp(write_map, *, rules="", m=6, status="", bx=15, name="map.toml"):
    return write_map(FP.format(rules=rules, m=m, status=status, bx=bx), name)


def _err(capsys, argv) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err
    return err


def test_negative_engagement_range_is_refused_at_load(write_map, capsys):
    err = _err(capsys, ["charge", fp(write_map, rules="engagement_range = -1"), "a", "b"])
    assert len(err.splitlines()) == 1 and "engagement_range" in err and "negative" in err


@pytest.mark.parametrize("key", ["M", "Move"])
def test_negative_move_is_refused_at_load(write_map, capsys, key):
    path = fp(write_map, m=-6)
    if key == "Move":
        text = open(path).read().replace("M = -6", "Move = -3")
        path = write_map(text, "move.toml")
    err = _err(capsys, ["charge", path, "a", "b"])
    assert len(err.splitlines()) == 1 and "not negative" in err and f"profile {key}" in err


def test_status_is_matched_whatever_its_case(write_map, capsys):
    # "Advanced" bars a charge exactly as "advanced" does (CHARGE_BARRING_STATUS)
    assert main(["charge", fp(write_map, status='status = ["Advanced"]'), "a", "b", "--json",
                 "--no-fight"]) == 0
    p = json.loads(capsys.readouterr().out)
    assert p["eligible"] is False and "advanced" in p["reason"]


def test_the_same_target_twice_is_refused(write_map, capsys):
    err = _err(capsys, ["charge", fp(write_map), "a", "b", "b"])
    assert len(err.splitlines()) == 1 and "'b' is given twice" in err


def test_a_target_off_the_table_says_so(write_map, capsys):
    # b at x = 35 on a 30" table: its base (35 -/+ 0.63) is wholly past the right edge
    err = _err(capsys, ["charge", fp(write_map, bx=35), "a", "b"])
    assert len(err.splitlines()) == 1 and "'b' is off the table" in err


def test_out_in_a_missing_folder_is_refused_and_no_folder_made(write_map, capsys, tmp_path):
    out = tmp_path / "missing" / "x.png"
    err = _err(capsys, ["charge", fp(write_map), "a", "b", "-o", str(out), "--no-fight"])
    assert len(err.splitlines()) == 1 and "no folder" in err
    assert not os.path.exists(tmp_path / "missing")


def test_without_unit_only_unit_is_required(write_map, capsys):
    assert main(["charge", fp(write_map)]) == 2
    err = capsys.readouterr().err
    assert "arguments are required: UNIT" in err and "TARGET" not in err.split("required:")[1]


# --- the landing drawn at its own facing (rank-and-flank) ------------------------------------

RNF = """
[map]
name = "angled"
ruleset = "rank-and-flank"
width = 40
depth = 30
[[players]]
id = "empire"
[[players]]
id = "orcs"
active = true
[[units]]
id = "spears"
player = "empire"
base = "25x25mm"
profile = { Move = 4, Skill = 3, Power = 3, Defense = 3, Attacks = 1, Wounds = 1, Discipline = 7 }
formation = { front_centre = [20, 15], facing = 90, files = 5, ranks = 2, count = 10 }
[[units]]
id = "boar"
player = "orcs"
base = "30x60mm"
profile = { Move = 7, Skill = 3, Power = 4, Defense = 4, Attacks = 1, Wounds = 1, Discipline = 7 }
formation = { front_centre = [10, 9], facing = 45, files = 3, ranks = 1, count = 3 }
"""


def test_an_angled_charge_lands_drawn_at_the_landing_facing(write_map, capsys):
    from tabletop.render.charge_plan import landing_polygons
    path = write_map(RNF)
    p = json.loads(_ok(capsys, ["charge", path, "boar", "spears", "--json", "--no-fight",
                               "--seed", "1"]))
    # boar faces 45 degrees, below-left of spears (facing +y): it hits spears' left flank
    # (the -x edge) and wheels to face +x, 0 degrees (360 and 0 are one facing)
    assert p["side"] == "left" and p["landing_facing"] % 360 == pytest.approx(0)
    st = load_map(path)
    polys = landing_polygons(st, p)
    # at 0 degrees a 30x60mm base is axis-aligned: 60 mm = 2.3622" deep along x, 30 mm =
    # 1.1811" wide along y (at the old 45 degrees both would be 90 / 25.4 / sqrt 2 = 2.5055")
    for poly in polys.values():
        x0, y0, x1, y1 = poly.bounds
        assert x1 - x0 == pytest.approx(60 / 25.4, abs=1e-3)
        assert y1 - y0 == pytest.approx(30 / 25.4, abs=1e-3)
    # side by side, 1.1811" apart: the ghosts touch, none covers another
    ps = list(polys.values())
    # (landing spots are rounded to 1e-4": an overlap of that order is no overlap)
    assert all(a.intersection(b).area < 1e-3 for i, a in enumerate(ps) for b in ps[i + 1:])


def _ok(capsys, argv) -> str:
    assert main(argv) == 0
    return capsys.readouterr().out


# --- a path that ends within engagement range of an undeclared unit ---------------------------

SCREEN = FP.replace("models = [[{bx}, 10]]", "models = [[{bx}, 10]]\n{extra}")
S_UNIT = """
[[units]]
id = "s"
player = "blue"
base = "32mm"
keywords = ["infantry"]
profile = {{ M = 6, T = 4, Sv = 3, W = 1 }}
weapons = [{{ name = "CCW", A = 1, WS = 4, S = 3, AP = 0, D = 1 }}]
models = [{models}]
"""


def screen_map(write_map, models, name="screen.toml", rules=""):
    text = SCREEN.format(rules=rules, m=6, status="", bx=15,
                         extra=S_UNIT.format(models=", ".join(f"[{x}, {y}]" for x, y in models)))
    return write_map(text, name)


@pytest.mark.parametrize("sy,warned", [(13, True), (15, False)])
def test_the_deciding_path_end_near_an_undeclared_unit_is_warned(write_map, capsys, sy, warned):
    # a (5, 10) charges b (15, 10) straight along y = 10 (nothing in the way): the path stops
    # where a's centre is 2r + 2 = 3.2598" from b's, at (11.7402, 10); distance 10 - 2r =
    # 8.7402", needs 6.7402": 7+ on 2D6 = 21/36 = 7/12.  s at (11.74, 13): centres 3.0"
    # apart, edges 3.0 - 2r = 1.7402" < 2": warned; s at (11.74, 15): 5.0 - 1.2598 =
    # 3.7402" > 2": clear.  (charge_avoid_undeclared = false: the path measured straight past
    # s, as before that named default; with it the path goes round s's engagement range,
    # tests/test_charge_avoid_undeclared.py)
    path = screen_map(write_map, [(11.74, sy)], rules="charge_avoid_undeclared = false")
    p = json.loads(_ok(capsys, ["charge", path, "a", "b", "--json", "--no-fight"]))
    assert p["odds_fraction"] == "7/12"
    assert p["path"][-1] == pytest.approx([15 - 2 * R - 2, 10], abs=1e-3)
    want = ["the shortest path ends within engagement range of s, which was not declared: "
            "that end is not legal"] if warned else []
    assert p["path_warnings"] == want
    out = _ok(capsys, ["charge", path, "a", "b", "--no-fight"])
    assert ("warning: the shortest path ends within engagement range of s" in out) == warned


R = 32 / 25.4 / 2


def test_no_fight_preview_without_a_legal_landing_and_problems_drawn_red(write_map, capsys, tmp_path):
    # a's three models at x = 4 (y 8.5, 10, 11.5) behind a wall of s (x = 9, y 6.22 ..
    # 13.78, 1.26" apart: bases touching, no gap a 32mm base fits through), b at (15, 10)
    # (the audit's screen.toml layout, moved 1" left): the planner's landing for the median
    # roll breaks the charge's end clauses (landing_legal False).  What is checked is the
    # rule: then no fight is previewed (it says why) and the panel lists the problems in red.
    import pygame

    from tabletop.render.charge_plan import PROBLEM_COLOUR
    # (charge_avoid_undeclared = false: the path past s's engagement range, as the landing
    # this test needs is the one that breaks the end clauses)
    path = screen_map(write_map, [(9, 6.22 + 1.26 * i) for i in range(7)],
                      rules="charge_avoid_undeclared = false")
    text = open(path).read().replace("models = [[5, 10]]", "models = [[4, 10], [4, 11.5], [4, 8.5]]")
    path = write_map(text, "screen2.toml")
    png = tmp_path / "plan.png"
    p = json.loads(_ok(capsys, ["charge", path, "a", "b", "--json", "-o", str(png)]))
    assert p["landing_legal"] is False and p["landing_problems"]
    assert p["fight"]["method"] == "none" and "no legal landing" in p["fight"]["why"]
    img = pygame.image.load(str(png))
    w, h = img.get_size()
    from tabletop.render.charge_plan import CHART_W
    red = sum(1 for x in range(w - CHART_W, w) for y in range(0, h, 1)
              if img.get_at((x, y))[:3] == PROBLEM_COLOUR)
    assert red > 20
