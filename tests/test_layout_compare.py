"""Checking a real table (issue 10 item 3): ``tabletop compare``, ``check --layout``, a
measured table written from the table edges, a terrain-only table, gaps and the bases
that pass them.  Expected values are worked by hand from the positions written here."""

from __future__ import annotations

import copy
import json
import math
import tomllib
from pathlib import Path

import pytest
import tomli_w

from tabletop.board.mapfile import from_dict, load
from tabletop.cli import main
from tabletop.geometry.layout_compare import compare_layouts
from tabletop.geometry.terrain_report import bases_through, terrain_gaps

ROOT = Path(__file__).resolve().parents[1]
LAYOUT = ROOT / "maps" / "ca-layout-1-hammer-and-anvil.toml"


def _turn(pts, centre, deg):
    t = math.radians(deg)
    cx, cy = centre
    return [[cx + (x - cx) * math.cos(t) - (y - cy) * math.sin(t),
             cy + (x - cx) * math.sin(t) + (y - cy) * math.cos(t)] for x, y in pts]


def _table_only(data):
    """The published layout as an organiser writes a measured table: terrain, objectives and
    zones only (no players, no units)."""
    out = copy.deepcopy({k: v for k, v in data.items() if k not in ("players", "units", "decisions")})
    out["map"]["name"] = "measured table"
    return out


def _perturbed(tmp_path):
    data = tomllib.loads(LAYOUT.read_text(encoding="utf-8"))
    m = _table_only(data)
    t = {p["id"]: p for p in m["terrain"]}
    # B (ruin 38..44 x 28..40) moved 1" right
    t["B"]["polygon"] = [[x + 1, y] for x, y in t["B"]["polygon"]]
    t["B"]["tall_part"] = [[x + 1, y] for x, y in t["B"]["tall_part"]]
    # D (ruin 48..54 x 5..17, centre (51, 11)) turned 10 degrees about its centre
    t["D"]["polygon"] = _turn(t["D"]["polygon"], (51, 11), 10)
    t["D"]["tall_part"] = _turn(t["D"]["tall_part"], (51, 11), 10)
    # C (ruin 44..56 x 22..28, walls over 44..52) turned 180 about its centre (50, 25): the same
    # footprint, the walls now over 48..56
    t["C"]["polygon"] = _turn(t["C"]["polygon"], (50, 25), 180)
    t["C"]["tall_part"] = _turn(t["C"]["tall_part"], (50, 25), 180)
    # objective north (30, 38) moved to (30, 37): 1" down
    next(o for o in m["objectives"] if o["id"] == "north")["at"] = [30, 37]
    path = tmp_path / "measured.toml"
    path.write_bytes(tomli_w.dumps(m).encode())
    return str(path)


def test_compare_reports_exactly_the_four_changes(tmp_path, capsys):
    measured = _perturbed(tmp_path)
    out_png = tmp_path / "diff.png"
    assert main(["compare", str(LAYOUT), measured, "--json", "-o", str(out_png)]) == 1
    d = json.loads(capsys.readouterr().out)
    off = {(i["sort"], i["id"]): i for i in d["items"] if not i["ok"]}
    assert set(off) == {("terrain", "B"), ("terrain", "C"), ("terrain", "D"),
                        ("objective", "north")}
    # 12 terrain pieces + 5 objectives + 2 zones, all matched by id, nothing missing or extra
    assert len(d["items"]) == 19 and d["missing_items"] == [] and d["extra_items"] == []
    assert all(i["matched_by"] == "id" for i in d["items"])
    assert d["off"] == 4 and d["in_place"] is False
    assert d["tolerance"] == 0.5 and d["turn_tolerance"] == 5.0      # the named defaults
    b, c, dd, n = off[("terrain", "B")], off[("terrain", "C")], off[("terrain", "D")], \
        off[("objective", "north")]
    assert b["offset"] == pytest.approx(1.0) and b["shift"] == pytest.approx([1.0, 0.0])
    assert b["turn_deg"] == pytest.approx(0.0, abs=1e-6) and b["why"] == ['moved 1.00"']
    # turned about its own centre: the centre stays, the long side turns 10 degrees
    assert dd["offset"] == pytest.approx(0.0, abs=1e-6) and dd["turn_deg"] == pytest.approx(10.0)
    # B, D fill their footprints with walls: those say nothing of the way the piece faces
    assert b["walls"] == "none" and dd["walls"] == "none"
    # C: the footprint alone looks in place; the walls' centre went from (48, 25) to (52, 25),
    # the other way from the piece's centre (50, 25): turned 180, walls on the wrong side
    assert c["offset"] == pytest.approx(0.0, abs=1e-6) and c["shape"] == pytest.approx(0.0, abs=1e-6)
    assert c["turn_deg"] == pytest.approx(180.0) and c["walls"] == "turned"
    assert "walls on the wrong side" in c["why"]
    # north: (30, 38) -> (30, 37), 1" down
    assert n["offset"] == pytest.approx(1.0) and n["shift"] == pytest.approx([0.0, -1.0])
    # C2, E, E2 have walls on one side and stand as published
    walls = {i["id"]: i["walls"] for i in d["items"]}
    assert walls["C2"] == walls["E"] == walls["E2"] == "same"
    assert out_png.stat().st_size > 10_000
    # check --layout gives the same under its layout key, old keys kept
    assert main(["check", measured, "--layout", str(LAYOUT), "--json"]) == 1
    r = json.loads(capsys.readouterr().out)
    assert {(i["sort"], i["id"]) for i in r["layout"]["items"] if not i["ok"]} == set(off)
    assert {"reference", "tolerance", "deviations", "missing", "extra"} <= set(r["layout"])
    assert r["problems"] == 0 and len(r["warnings"]) == 4


def test_compare_of_the_layout_with_itself_is_in_place(capsys):
    assert main(["compare", str(LAYOUT), str(LAYOUT)]) == 0
    assert "19 of 19 matched" in capsys.readouterr().out


def test_matching_by_nearest_shape_when_ids_differ(tmp_path):
    pub = load(str(LAYOUT))
    m = _table_only(tomllib.loads(LAYOUT.read_text(encoding="utf-8")))
    t = {p["id"]: p for p in m["terrain"]}
    # the organiser called B "ruin-7" and it stands 0.3" up (in place within 0.5"); D2 was
    # called "x" and is missing from the table; an extra obstacle stands far from everything
    t["B"]["id"] = "ruin-7"
    t["B"]["polygon"] = [[x, y + 0.3] for x, y in t["B"]["polygon"]]
    t["B"]["tall_part"] = [[x, y + 0.3] for x, y in t["B"]["tall_part"]]
    m["terrain"] = [p for p in m["terrain"] if p["id"] != "D2"]
    m["terrain"].append({"id": "crate", "kind": "obstacle",
                         "polygon": [[57, 38], [59, 38], [59, 40], [57, 40]]})
    diff = compare_layouts(from_dict(m, "m"), pub)
    got = {d.id: d for d in diff.items}
    assert got["ruin-7"].published_id == "B" and got["ruin-7"].matched_by == "shape"
    assert got["ruin-7"].offset == pytest.approx(0.3) and got["ruin-7"].ok
    # D2 is left with no measured ruin to pair with, and the crate (an obstacle) with no
    # published obstacle left (A, A2, F, F2 matched by id): missing and extra
    assert [(x.sort, x.id) for x in diff.missing] == [("terrain", "D2")]
    assert [(x.sort, x.id) for x in diff.extra] == [("terrain", "crate")]
    assert not diff.off


TERRAIN_ONLY = """
[map]
name = "Club table 3"
ruleset = "fight-phase"
width = 60
depth = 44

[[terrain]]
id = "C"
kind = "ruin"
corners = [{ from = ["left", "bottom"], at = [44, 22] }, { from = ["right", "bottom"], at = [4, 22] }]
depth = 6
tall_along = [0, 8]

[[terrain]]
id = "box"
kind = "obstacle"
corner = { from = ["top", "left"], at = [2, 10] }
angle = -90
width = 6
depth = 4

[[objectives]]
id = "east"
at = { from = ["right", "top"], at = [10, 22] }
"""


def test_a_terrain_only_table_passes_check(write_map, capsys):
    path = write_map(TERRAIN_ONLY)
    assert main(["check", path]) == 0
    assert "Problems: none - the layout is legal" in capsys.readouterr().out


def test_units_without_players_still_an_error(write_map, capsys):
    path = write_map(TERRAIN_ONLY + """
[[units]]
id = "u"
player = "red"
base = "32mm"
models = [[5, 5]]
""")
    assert main(["check", path]) == 2
    err = capsys.readouterr().err
    assert "players: missing (required)" in err


def test_measured_forms_give_the_plain_polygons(write_map):
    state = load(write_map(TERRAIN_ONLY))
    c, box = state.terrain
    # corner 1 = (44, 22); corner 2 = 4" from the right of a 60" table = (56, 22); the piece
    # runs 6" to the left of 1 -> 2 (up): the shipped layout's C, 44..56 x 22..28
    assert c.polygon == ((44, 22), (56, 22), (56, 28), (44, 28))
    # tall_along [0, 8]: the first 8" along that side, full depth: C's walls 44..52
    assert c.tall_part == ((44, 22), (52, 22), (52, 28), (44, 28))
    # corner 2" from the top (44 - 2 = 42) and 10" from the left: (10, 42); the first side runs
    # 6" at -90 degrees (straight down) to (10, 36); the piece lies to its left (+x), 4" deep
    assert [pytest.approx(p) for p in box.polygon] == [(10, 42), (10, 36), (14, 36), (14, 42)]
    # 10" from the right (60 - 10 = 50) and 22" from the top (44 - 22 = 22)
    assert state.objectives[0].at == (50, 22)
    # the same piece in the plain form compares in place with the measured one
    plain = load(str(LAYOUT))
    diff = compare_layouts(state, plain)
    assert {d.id: d.ok for d in diff.items}["C"] is True
    assert {d.id: d.walls for d in diff.items}["C"] == "same"


def test_a_bad_measured_corner_is_one_line(write_map, capsys):
    path = write_map(TERRAIN_ONLY.replace('from = ["left", "bottom"], at = [44, 22]',
                                          'from = ["left", "right"], at = [44, 22]'))
    assert main(["check", path]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "terrain[0].corners[0].from: from is two table edges" in err[0]


GAP = """
[map]
name = "Gap"
ruleset = "fight-phase"
width = 30
depth = 20

[[terrain]]
id = "w"
kind = "ruin"
polygon = [[5, 8], [10, 8], [10, 12], [5, 12]]

[[terrain]]
id = "e"
kind = "ruin"
polygon = [[12, 8], [17, 8], [17, 12], [12, 12]]
"""


def test_a_two_inch_gap_and_the_bases_that_pass(write_map, capsys, tmp_path):
    state = load(write_map(GAP))
    gap = next(g for g in terrain_gaps(state) if {g.a, g.b} == {"w", "e"})
    assert gap.width == pytest.approx(2.0)               # x 10 to 12
    # 25mm = 0.98", 32mm = 1.26", 40mm = 1.57", 50mm = 1.97" pass; 60mm = 2.36" does not;
    # the 75x42 oval's narrow side 42mm = 1.65" passes, 90x52's 52mm = 2.05" does not
    assert gap.bases == ("25mm", "32mm", "40mm", "50mm", "75x42mm oval")
    assert "60mm" not in bases_through(2.0) and "60mm" in bases_through(60 / 25.4)
    png = tmp_path / "gaps.png"
    assert main(["check", write_map(GAP), "--json", "-o", str(png)]) == 0
    r = json.loads(capsys.readouterr().out)
    g = next(g for g in r["terrain_gaps"] if {g["a"], g["b"]} == {"w", "e"})
    assert g["bases"] == list(gap.bases)
    # the narrowest points lie on w's right side (x = 10) and e's left side (x = 12)
    assert g["ends"][0][0] == pytest.approx(10) and g["ends"][1][0] == pytest.approx(12)
    assert png.stat().st_size > 5_000


def test_compare_json_contract(tmp_path, capsys):
    """docs/json.md's compare table: every key there, with its type, on a perturbed table
    (matched by id and by shape, missing and extra) and on the layout against itself."""
    from test_json_contract import Contract, run_json

    c = Contract("compare")
    data = _table_only(tomllib.loads(LAYOUT.read_text(encoding="utf-8")))
    data["terrain"][0]["id"] = "renamed"                     # A: paired by shape
    data["terrain"] = [p for p in data["terrain"] if p["id"] != "D2"]   # D2 missing
    data["objectives"].append({"id": "new", "at": [5, 5]})  # an extra objective
    path = tmp_path / "m.toml"
    path.write_bytes(tomli_w.dumps(data).encode())
    c.check(run_json(capsys, "compare", str(LAYOUT), str(path), "--json", code=1), "perturbed")
    c.check(run_json(capsys, "compare", str(LAYOUT), str(LAYOUT), "--json"), "same")
    c.check(run_json(capsys, "compare", str(LAYOUT), str(LAYOUT), "--json", "-o",
                     str(tmp_path / "diff.png")), "with -o (picture)")
    c.assert_covered()
