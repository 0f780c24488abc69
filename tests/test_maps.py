"""The shipped maps in maps/: they load, check clean, round-trip, and hold what they claim.

Expected values are worked out by hand from the positions written in
tools/make_maps.py (the arithmetic is in the comments).  Radii: 25mm = 0.4921",
28.5mm = 0.5610", 32mm = 0.6299", 40mm = 0.7874" (also the objective marker),
50mm = 0.9843".  Objective range 3" from the marker's edge, so a round base of
radius r is in range when its centre is within 3 + 0.7874 + r of the marker's
centre (+ the 0.02" tolerance).  Engagement range (11th preset) 2".
"""

from __future__ import annotations

import csv
import json
import math
import os
import sys
import tomllib
from pathlib import Path

import pytest

from tabletop.board import mapfile
from tabletop.cli import main
from tabletop.errors import MapValidationError
from tabletop.geometry import snapshot

ROOT = Path(__file__).resolve().parent.parent
MAPS = ROOT / "maps"
REFERENCE = Path(os.environ.get("TABLETOP_REFERENCE", str(ROOT / "reference")))
ALL_MAPS = sorted(MAPS.glob("**/*.toml"))
LAYOUT1 = MAPS / "ca-layout-1-hammer-and-anvil.toml"
LAYOUT2 = MAPS / "ca-layout-2-crucible-of-battle.toml"
OLD_WORLD = MAPS / "old-world-72x48.toml"

R25, R32, R40, R50 = 12.5 / 25.4, 16 / 25.4, 20 / 25.4, 25 / 25.4
MARKER = R40


def check_json(path: Path, capsys) -> dict:
    code = main(["check", str(path), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == (1 if report["problems"] else 0)
    return report


def test_the_shipped_maps_are_all_here():
    names = {p.relative_to(MAPS).as_posix() for p in ALL_MAPS}
    assert {"ca-layout-1-hammer-and-anvil.toml", "ca-layout-2-crucible-of-battle.toml",
            "old-world-72x48.toml", "lessons/pile-in.toml", "lessons/flank-charge.toml",
            "lessons/rear-charge.toml"} <= names


@pytest.mark.parametrize("path", ALL_MAPS, ids=lambda p: p.name)
def test_every_map_loads_and_checks_clean(path, capsys):
    state = mapfile.load(str(path))
    # the empty tables (maps/*-table.toml) are for deploying a roster on: no units
    assert (state.units or path.name.endswith("-table.toml")) and state.source
    report = check_json(path, capsys)
    assert report["problems"] == 0
    assert report["overlaps"] == [] and report["off_table"] == [] and report["coherency"] == []


@pytest.mark.parametrize("path", ALL_MAPS, ids=lambda p: p.name)
def test_every_map_round_trips(path):
    state = mapfile.load(str(path))
    again = mapfile.from_dict(tomllib.loads(mapfile.dumps(state)), path=str(path))
    assert again == state
    # and the text is stable: saving the reloaded state writes the same file body
    assert mapfile.dumps(again) == mapfile.dumps(state)


@pytest.mark.parametrize("path", ALL_MAPS, ids=lambda p: p.name)
def test_every_map_says_what_it_is_at_the_top(path):
    head = path.read_text(encoding="utf-8").splitlines()[:3]
    assert all(line.startswith("#") for line in head)
    if path.parent.name == "lessons":
        text = "\n".join(path.read_text(encoding="utf-8").splitlines()[:8])
        assert "Teaches" in text and ".txt" in text


# ------------------------------------------------------------------ layout 1
def test_layout1_terrain_is_the_published_layout_flipped():
    state = mapfile.load(str(LAYOUT1))
    pieces = {t.id: t for t in state.terrain}
    assert sorted(pieces) == sorted(["A", "A2", "B", "B2", "C", "C2", "D", "D2", "E", "E2",
                                     "F", "F2"])
    # piece B: diagram (38,4)-(44,16) -> map x 38..44, y 44-16 = 28 .. 44-4 = 40; all tall
    assert pieces["B"].polygon == ((38, 40), (44, 40), (44, 28), (38, 28))
    assert pieces["B"].tall_part == pieces["B"].polygon and pieces["B"].kind == "ruin"
    # piece C: tall (44,16)-(52,22), low (52,16)-(56,22) -> tall part map y 22..28, x 44..52
    assert pieces["C"].polygon == ((44, 28), (56, 28), (56, 22), (44, 22))
    assert pieces["C"].tall_part == ((44, 28), (52, 28), (52, 22), (44, 22))
    # piece A: low only (28,0)-(32,6) -> map y 38..44: an obstacle, no tall part
    assert pieces["A"].polygon == ((28, 44), (32, 44), (32, 38), (28, 38))
    assert pieces["A"].kind == "obstacle" and pieces["A"].tall_part is None
    # piece E (rotated 45deg): diagram (33.54, 23.46) -> (33.54, 44 - 23.46 = 20.54)
    assert pieces["E"].polygon[3] == pytest.approx((33.54, 20.54), abs=1e-9)
    assert pieces["E"].polygon[0] == (30, 17)            # diagram (30, 27)


def test_layout1_hammer_and_anvil_zones_and_objectives():
    state = mapfile.load(str(LAYOUT1))
    zones = {d.player: d.polygon for d in state.deployment}
    # defender 18" from the left short edge, attacker 18" from the right (flip leaves them)
    assert zones["marines"] == ((0, 44), (18, 44), (18, 0), (0, 0))
    assert zones["orks"] == ((42, 44), (60, 44), (60, 0), (42, 0))
    objs = {o.id: o.at for o in state.objectives}
    # diagram (30,6) "6\" from top edge" -> map (30, 38); (30,38) -> (30, 6)
    assert objs == {"centre": (30, 22), "west": (10, 22), "east": (50, 22),
                    "north": (30, 38), "south": (30, 6)}


def test_layout1_check_report(capsys):
    report = check_json(LAYOUT1, capsys)
    assert report["problems"] == 0
    assert report["engaged"] == [["assault", "boyz"], ["captain", "nobz"],
                                 ["intercessors-b", "nobz"]]
    # assault 1-3 at x = 33.74 against boyz 1-3 at x = 35.0, same y: gap 35 - 33.74 - 1.26 = 0;
    # the captain (r 0.984) at x = 40 - 0.630 - 0.984 = 38.3858, y 7.2 touches nob 5 (40, 7.2)
    assert report["base_contact"] == [["assault/1", "boyz/1"], ["assault/2", "boyz/2"],
                                      ["assault/3", "boyz/3"], ["captain/1", "nobz/5"]]
    ranges = {o["id"]: o["within_range"] for o in report["objectives"]}
    # west (10, 22), 32mm: in range when the centre is within 3 + 0.787 + 0.630 = 4.417.
    # intercessors row y 23.2, x 7.4..13.0: farthest (13.0, 23.2) is sqrt(9 + 1.44) = 3.23 in;
    # row y 24.6, x 8.1..13.7: (12.3, 24.6) sqrt(5.29 + 6.76) = 3.47 in, (13.7, 24.6)
    # sqrt(13.69 + 6.76) = 4.52 out.  Lieutenant (4.6, 24.2): 5.83 > 4.574 out.
    assert ranges["west"] == {"marines": [f"intercessors/{k}" for k in range(1, 10)], "orks": []}
    # east (50, 22), meganobz 40mm at y 19.5, x 48.5/50.2/51.9: farthest sqrt(3.61 + 6.25)
    # = 3.14 <= 3 + 0.787 + 0.787 = 4.574, all in; beastboss (57.5, 20) 7.76 out
    assert ranges["east"] == {"marines": [], "orks": ["meganobz/1", "meganobz/2", "meganobz/3"]}
    # south (30, 6), gretchin 25mm (limit 3 + 0.787 + 0.492 = 4.279): front column x 28.78,
    # y 8.6 (2.87 in), 9.65 (3.85 in), 10.7 (4.86 out); second column x 29.85, y 9.1 (3.10
    # in), 10.15 (4.15 in), 11.2 (5.20 out); runtherd (31, 11.1), 32mm: 5.20 > 4.417 out
    assert ranges["south"] == {"marines": [],
                               "orks": ["gretchin/1", "gretchin/2", "gretchin/6", "gretchin/7"]}
    # centre: closest is assault/6 (32.24, 27.65), 6.08 > 4.417; north (30, 38): assault/10
    # (31.3, 33.3) sqrt(1.69 + 22.09) = 4.88 > 4.417
    assert ranges["centre"] == {"marines": [], "orks": []}
    assert ranges["north"] == {"marines": [], "orks": []}


def test_layout1_fight_scenes_for_the_fight_phase():
    state = mapfile.load(str(LAYOUT1))
    geo = snapshot(state)
    assert state.active_player == "marines"
    assert state.unit("assault").charged and state.unit("bladeguard").charged
    assert not state.unit("boyz").charged
    # engagement groups: the three-unit combat at the bottom, the two-unit one at the top
    assert geo.engagements == [["assault", "boyz"], ["captain", "intercessors-b", "nobz"]]
    # assault 4-5 at x = 32.74 face boyz 4-5 at x = 35.0: 35 - 32.74 - 1.2598 = 1.0002 (engaged)
    assert geo.gap("assault/4", "boyz/4") == pytest.approx(35 - 32.74 - 2 * R32, abs=1e-9)
    # assault/1 at 33.74 and boyz/1 at 35.0: 1.26 - 1.2598 = 0.00016" apart: base contact
    assert geo.gap("assault/1", "boyz/1") == pytest.approx(1.26 - 2 * R32, abs=1e-9)
    # assault/6 (32.24, 27.65) to boyz/1 (35, 27): sqrt(2.76^2 + 0.65^2) - 1.26 = 1.5755
    assert geo.gap("assault/6", "boyz/1") == pytest.approx(math.hypot(2.76, 0.65) - 2 * R32)
    # assault 7-10 are out of the 2" engagement range (they must pile in, 12.03):
    # assault/7 (31.5, 29) to boyz/3 (35, 29.6): sqrt(12.25 + 0.36) - 1.26 = 2.29
    for k in (7, 8, 9, 10):
        assert geo.engaged_models(f"assault/{k}") == []
    assert geo.nearest_enemy("assault/7") == ("boyz/3", pytest.approx(math.hypot(3.5, 0.6) - 2 * R32))
    # Bladeguard charged but are unengaged, 4" from the Gretchin: bladeguard/2 (23.5, 10.7)
    # to gretchin/3 (28.78, 10.7): 28.78 - 23.5 - 0.7874 - 0.4921 = 4.0005
    assert not geo.unit_engaged("bladeguard")
    assert geo.distance("bladeguard", "gretchin") == pytest.approx(5.28 - R40 - R25, abs=1e-9)
    assert geo.enemy_units_within("bladeguard", 5.0) == ["gretchin"]     # 12.03 pile-in target
    assert geo.enemy_units_within("bladeguard", 3.9) == []
    # intercessors-b 1-3 at x = 37.74 are 1" from nobz at x = 40: 40 - 37.74 - 1.2598 = 1.0002
    assert geo.gap("intercessors-b/1", "nobz/1") == pytest.approx(40 - 37.74 - 2 * R32, abs=1e-9)
    # the captain at 38.3858 (r 0.9843) and nob 5 at 40 (r 0.6299): 1.6142 - 1.61417 = 0.00003
    assert geo.gap("captain/1", "nobz/5") == pytest.approx(40 - 38.3858 - R50 - R32, abs=1e-9)
    assert geo.contacts_of("intercessors-b/1") == []


def test_layout1_armies_mix_bases_and_deploy_inside_their_zones():
    from shapely.geometry import Polygon

    from tabletop.geometry.footprints import base_polygon

    state = mapfile.load(str(LAYOUT1))
    texts = {m.base.text for m in state.models()}
    assert {"25mm", "28.5mm", "32mm", "40mm", "50mm", "90x52.5mm oval", "75x42mm oval"} <= texts
    assert 8 <= len(state.units_of("marines")) <= 10 and 8 <= len(state.units_of("orks")) <= 10
    ovals = [m for m in state.models() if m.base.shape == "oval"]
    assert {m.facing_deg for m in ovals if m.id.startswith("outriders")} == {0.0}
    assert {m.facing_deg for m in ovals if m.id.startswith("warbikers")} == {180.0}
    zones = {d.player: Polygon(d.polygon) for d in state.deployment}
    fighting = {"assault", "boyz", "bladeguard", "gretchin", "nobz", "intercessors-b", "captain"}
    for u in state.units:
        if u.id in fighting:
            continue
        for m in u.models:
            assert zones[u.player].covers(base_polygon(m.base, m.x, m.y, m.facing_deg)), m.id
    # the source names the base-sizes.csv lines used
    assert "base-sizes.csv lines" in state.source and "819 (Space Marines Scout Squad 28.5mm)" \
        in state.source


# ------------------------------------------------------------------ layout 2
def test_layout2_crucible_deployed_only(capsys):
    state = mapfile.load(str(LAYOUT2))
    pieces = {t.id: t for t in state.terrain}
    # layout 2 piece A: diagram (5,4)-(11,16), tall (5,4)-(11,12) -> map y 28..40, tall y 32..40
    assert pieces["A"].polygon == ((5, 40), (11, 40), (11, 28), (5, 28))
    assert pieces["A"].tall_part == ((5, 40), (11, 40), (11, 32), (5, 32))
    zones = {d.player: d.polygon for d in state.deployment}
    # defender triangle: diagram (0,0);(30,44);(0,44) -> map (0,44);(30,0);(0,0)
    assert zones["marines"] == ((0, 44), (30, 0), (0, 0))
    assert zones["orks"] == ((30, 44), (60, 44), (60, 0))
    report = check_json(LAYOUT2, capsys)
    assert report["problems"] == 0 and report["engaged"] == [] and report["base_contact"] == []
    ranges = {o["id"]: o["within_range"] for o in report["objectives"]}
    assert sorted(ranges) == ["centre", "north-east", "north-west", "south-east", "south-west"]
    # north-east (46, 34): nobz column x 43.3; nobz/1 (43.3, 30) sqrt(7.29 + 16) = 4.83 > 4.417
    # out, nobz/2 (43.3, 31.35) 3.78 in ... nobz/5 (43.3, 35.4) 3.04 in; warboss (44.8, 37.5)
    # sqrt(1.44 + 12.25) = 3.70 <= 4.574 in
    assert ranges["north-east"] == {"marines": [],
                                    "orks": ["nobz/2", "nobz/3", "nobz/4", "nobz/5", "warboss/1"]}
    # south-west (14, 10): outrider ovals facing 90 (3.54" along y, 2.07" across x); the
    # farthest, outriders/3 at (15.3, 13.9), has its lower tip at (15.3, 12.13), which is
    # sqrt(1.69 + 4.54) - 0.787 = 1.71 from the marker: all three in range
    assert ranges["south-west"] == {"marines": ["outriders/1", "outriders/2", "outriders/3"],
                                    "orks": []}
    for oid in ("centre", "north-west", "south-east"):
        assert ranges[oid] == {"marines": [], "orks": []}


# ------------------------------------------------------------------ rank-and-flank
def test_old_world_front_and_flank_engagement(capsys):
    state = mapfile.load(str(OLD_WORLD))
    assert state.ruleset == "rank-and-flank" and state.table.width == 72
    texts = {m.base.text for m in state.models()}
    assert {"20x20mm", "25x25mm", "25x50mm"} <= texts
    for u in state.units:
        assert {"Move", "Skill", "Power", "Defense", "Attacks", "Wounds", "Discipline"} \
            <= set(u.profile)
    report = check_json(OLD_WORLD, capsys)
    assert report["problems"] == 0
    assert report["engaged"] == [["halberdiers", "orc-mob"], ["halberdiers", "wolf-riders"]]
    # Front: halberdier front rank (25mm = 0.984") spans x 33.539..38.461 in five files
    # [33.539, 34.524] [34.524, 35.508] [35.508, 36.492] [36.492, 37.476] [37.476, 38.461];
    # the orc front rank (30mm = 1.181", facing 270 so file 1 is at the east end) spans
    # orc/1 [37.181, 38.362], /2 [36.0, 37.181], /3 [34.819, 36.0], /4 [33.638, 34.819],
    # both front edges on y = 24: a pair touches where the x spans meet (h1 and o3 are
    # 0.295" apart, no contact).
    front = [("halberdiers/1", "orc-mob/4"), ("halberdiers/2", "orc-mob/3"),
             ("halberdiers/2", "orc-mob/4"), ("halberdiers/3", "orc-mob/2"),
             ("halberdiers/3", "orc-mob/3"), ("halberdiers/4", "orc-mob/1"),
             ("halberdiers/4", "orc-mob/2"), ("halberdiers/5", "orc-mob/1")]
    # Flank: right file (5, 10, 15, 20 from front to back, y spans [23.016, 24],
    # [22.031, 23.016], [21.047, 22.031], [20.063, 21.047]) against wolves 1-4 (facing 180, so
    # file 1 is at the south end) spanning the same four intervals from the south: each wolf
    # touches the file model level with it and, at the corners, the ones either side.
    flank = [("halberdiers/20", "wolf-riders/1"), ("halberdiers/15", "wolf-riders/1"),
             ("halberdiers/15", "wolf-riders/2"), ("halberdiers/20", "wolf-riders/2"),
             ("halberdiers/10", "wolf-riders/2"), ("halberdiers/10", "wolf-riders/3"),
             ("halberdiers/15", "wolf-riders/3"), ("halberdiers/5", "wolf-riders/3"),
             ("halberdiers/5", "wolf-riders/4"), ("halberdiers/10", "wolf-riders/4")]
    assert report["base_contact"] == sorted([list(sorted(p)) for p in front + flank])
    geo = snapshot(state)
    assert geo.engagements[0] == ["halberdiers", "orc-mob", "wolf-riders"]
    # the orc front edge is flush with the halberdiers' front edge, the wolves' with the flank
    assert geo.gap("halberdiers/3", "orc-mob/3") == pytest.approx(0.0, abs=1e-6)
    assert geo.gap("halberdiers/10", "wolf-riders/3") == pytest.approx(0.0, abs=1e-6)
    # the wolves do not touch the orcs: 38.4606 - 38.3622 = 0.098" apart
    assert geo.gap("orc-mob/1", "wolf-riders/4") == pytest.approx(
        2.5 * 25 / 25.4 - 2 * 30 / 25.4, abs=1e-6)
    # the commanders stand in the two front ranks, in base contact (they duel)
    cmd = {m.unit_id: m.id for m in state.models() if m.role == "commander"}
    assert cmd == {"halberdiers": "halberdiers/3", "orc-mob": "orc-mob/2"}
    assert geo.in_base_contact("halberdiers/3", "orc-mob/2")
    assert state.model("halberdiers/3").profile["Attacks"] == 3
    assert state.unit("wolf-riders").charged
    # and the units deployed along the long edges are not engaged
    for uid in ("spearmen", "knights", "flagellants", "night-goblins", "black-orcs"):
        assert not geo.unit_engaged(uid)


def test_lesson_pile_in_distances():
    state = mapfile.load(str(MAPS / "lessons/pile-in.toml"))
    geo = snapshot(state)
    # boyz at x = 14, y 8 / 9.3 / 10.6; intercessors/1 at 12.74: 14 - 12.74 - 1.2598 = 0.0002
    assert geo.in_base_contact("intercessors/1", "boyz/1")
    # intercessors/2 (11.24, 10.6): 14 - 11.24 - 1.2598 = 1.5002 from boyz/3 (level with it)
    assert geo.nearest_enemy("intercessors/2") == ("boyz/3", pytest.approx(14 - 11.24 - 2 * R32))
    # intercessors/3 (6.74, 10.6): 14 - 6.74 - 1.2598 = 6.0002 (3" of move leaves it 3.0"
    # away, outside the 2" engagement range: it only gets closer)
    assert geo.nearest_enemy("intercessors/3") == ("boyz/3", pytest.approx(14 - 6.74 - 2 * R32))
    # intercessors/4 (10, 8), intercessors/1 (12.74, 8) and boyz/1 (14, 8) lie on one line:
    # the straight way in is through a friendly base; it is 2.74" from the enemy, not engaged
    assert state.model("intercessors/4").y == state.model("intercessors/1").y \
        == state.model("boyz/1").y
    assert geo.nearest_enemy("intercessors/4") == ("boyz/1", pytest.approx(4 - 2 * R32))
    assert geo.engaged_models("intercessors/4") == []


def test_lesson_flank_charge_is_flush_against_the_flank():
    state = mapfile.load(str(MAPS / "lessons/flank-charge.toml"))
    geo = snapshot(state)
    assert state.unit("wolf-riders").charged and not state.unit("spearmen").charged
    f = state.unit("spearmen").formation
    assert (f.files, f.ranks) == (5, 4)
    # only the right file (models 5, 10, 15, 20) touches the chargers
    touched = {a for a, b in geo.base_contacts} | {b for a, b in geo.base_contacts}
    assert {t for t in touched if t.startswith("spearmen")} == {
        "spearmen/5", "spearmen/10", "spearmen/15", "spearmen/20"}
    # the wolves' front edge is the spearmen's right flank: x = 18 + 2.5 x 0.984 = 20.4606
    w = state.model("wolf-riders/1")
    assert w.x - w.base.along / 2 == pytest.approx(18 + 2.5 * 25 / 25.4, abs=1e-6)
    assert w.facing_deg == 180


def test_lesson_rear_charge_is_flush_against_the_rear_of_one_rank():
    state = mapfile.load(str(MAPS / "lessons/rear-charge.toml"))
    geo = snapshot(state)
    target, charger = state.unit("handgunners"), state.unit("orc-mob")
    assert target.formation.ranks == 1 and charger.charged
    assert charger.formation.facing == target.formation.facing == 90     # charging its back
    # rear edge of the single rank: y = 12 - 0.984 = 11.0157 = the orcs' front edge
    rear = 12 - 25 / 25.4
    assert max(m.y + m.base.along / 2 for m in charger.models) == pytest.approx(rear, abs=1e-6)
    assert geo.engaged_unit_pairs == [("handgunners", "orc-mob")]
    # the one-rank unit's commander can fight to the rear; it touches the Orc Bigboss
    assert geo.in_base_contact("handgunners/3", "orc-mob/2")
    assert state.model("handgunners/3").role == state.model("orc-mob/2").role == "commander"


# ------------------------------------------------------------------ format extension
def test_tall_part_is_optional_and_checked(write_map):
    path = write_map("""
        [map]
        name = "t"
        ruleset = "fight-phase"
        width = 10
        depth = 10
        [[players]]
        id = "a"
        active = true
        [[terrain]]
        id = "r"
        kind = "ruin"
        polygon = [[0, 0], [4, 0], [4, 4], [0, 4]]
        tall_part = [[0, 0], [2, 0]]
        """)
    with pytest.raises(MapValidationError) as err:
        mapfile.load(path)
    assert err.value.problems == [
        f"{path}: terrain[0].tall_part: a polygon needs at least 3 points [[x, y], ...], "
        "got [[0, 0], [2, 0]]"]


# ------------------------------------------------------------------ against the reference
needs_reference = pytest.mark.skipif(not (REFERENCE / "terrain-layouts-ca-2025-26.csv").exists(),
                                     reason="reference CSVs not present")


@needs_reference
@pytest.mark.parametrize("layout, path", [(1, LAYOUT1), (2, LAYOUT2)])
def test_every_piece_matches_the_reference_csv(layout, path):
    state = mapfile.load(str(path))
    pieces = {t.id: t for t in state.terrain}

    def flip(text):
        pts = [tuple(float(v) for v in p.strip("()").split(",")) for p in text.split(";")]
        return [c for x, y in pts for c in (x, 44 - y)]

    def flat(points):
        return [c for p in points for c in p]

    with open(REFERENCE / "terrain-layouts-ca-2025-26.csv", newline="", encoding="utf-8") as fh:
        rows = [r for r in csv.DictReader(fh) if r["layout"] == str(layout)]
    assert sorted(pieces) == sorted(r["piece"] for r in rows)
    for r in rows:
        t = pieces[r["piece"]]
        assert flat(t.polygon) == pytest.approx(flip(r["outline_in"]), abs=1e-9)
        if r["tall_part_in"]:
            assert t.kind == "ruin"
            assert flat(t.tall_part) == pytest.approx(flip(r["tall_part_in"]), abs=1e-9)
        else:
            assert t.kind == "obstacle" and t.tall_part is None


@needs_reference
def test_committed_maps_are_what_the_script_builds():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import make_maps
    finally:
        sys.path.remove(str(ROOT / "tools"))
    assert make_maps.main(["--check", "--reference", str(REFERENCE)]) == 0
