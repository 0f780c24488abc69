"""``tabletop check`` and ``tabletop measure`` on a small hand-worked map (docs/map-format.md)."""

from __future__ import annotations

import json

import pytest

from tabletop.cli import main

# 32mm bases: diameter 1.259843".  11th edition presets: engagement 2", coherency 2" + 9" spread.
SMALL = """
[map]
name = "Small"
ruleset = "fight-phase"
width = 30
depth = 20

[[players]]
id = "red"
active = true
[[players]]
id = "blue"

[[objectives]]
id = "A"
at = [15, 10]

[[units]]
id = "int"
player = "red"
base = "32mm"
profile = { OC = 2 }
# int/1 touches orks/1 (centres 1.259843" apart); int/2 is 1.5" from int/1 (centres);
# int/3 is 6" from int/2: out of coherency; int/4 hangs off the left edge
models = [[10, 10], [8.5, 10], [2.5, 10], [0.3, 14]]

[[units]]
id = "orks"
player = "blue"
base = "32mm"
# orks/1 touches int/1; orks/2 overlaps orks/3 (centres 0.5" apart)
models = [[11.259843, 10], [12.5, 12], [13.0, 12]]
"""


def test_check_json_reports_every_problem(write_map, capsys):
    path = write_map(SMALL)
    assert main(["check", path, "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["map"] == "Small" and report["ruleset"] == "fight-phase" and report["models"] == 7
    assert report["overlaps"] == [["orks/2", "orks/3"]]
    assert report["off_table"] == ["int/4"]
    assert report["base_contact"] == [["int/1", "orks/1"]]
    assert report["engaged"] == [["int", "orks"]]
    # int/3: gap to int/2 is 6 - 1.26 = 4.74" > 2": no neighbour; int/4 at (0.3, 14) is
    # hypot(2.2, 4) - 1.26 = 3.305" from int/3 and 8.49" edge from int/2: no neighbour.
    # Spread: int/1 to int/3 is 7.5 - 1.26 = 6.24 <= 9; int/1 to int/4 hypot(9.7, 4)-1.26 = 9.23 > 9
    coherency = {c["unit"]: c["models"] for c in report["coherency"]}
    assert coherency == {"int": ["int/1", "int/3", "int/4"]}
    # objective A: 40mm marker at (15, 10); orks/2 at (12.5, 12): hypot(2.5, 2) - 0.63 - 0.787 = 1.785
    # orks/3 (13, 12): 2.828 - 1.417 = 1.41; orks/1: 3.74 - 1.417 = 2.32; int/1: 5 - 1.417 = 3.58 > 3
    assert report["objectives"] == [
        {"id": "A", "within_range": {"red": [], "blue": ["orks/1", "orks/2", "orks/3"]}}]
    assert report["problems"] == 1 + 1 + 3


def test_check_text_report_and_clean_exit(write_map, capsys):
    clean = SMALL.replace("[0.3, 14]", "[7, 10]").replace("[2.5, 10]", "[5.5, 10]").replace(
        "[13.0, 12]", "[14.0, 12]")
    path = write_map(clean)
    assert main(["check", path]) == 0
    out = capsys.readouterr().out
    assert "Problems: none" in out and "int <-> orks" in out


def test_measure_prints_edge_to_edge(write_map, capsys):
    path = write_map(SMALL)
    assert main(["measure", path, "int/2", "orks/1", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    # centres 2.759843" apart, minus 1.259843" = 1.5"
    assert got == {"a": "int/2", "b": "orks/1", "distance": pytest.approx(1.5, abs=1e-6)}
    assert main(["measure", path, "int", "A"]) == 0
    assert '3.58"' in capsys.readouterr().out


def test_measure_unknown_id_exits_2(write_map, capsys):
    path = write_map(SMALL)
    assert main(["measure", path, "int/9", "A"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"{path}: A: no model, unit, objective or terrain with id 'int/9'")


TERRAIN = """
[map]
name = "Terrain"
ruleset = "fight-phase"
width = 24
depth = 18
[[players]]
id = "red"
active = true
[[terrain]]
id = "t"
kind = "ruin"
{terrain}
[[objectives]]
id = "far"
at = {objective}
"""


def test_unmeasurable_terrain_is_bad_input(write_map, capsys):
    bow_tie = 'polygon = [[0, 0], [4, 4], [4, 0], [0, 4]]'
    path = write_map(TERRAIN.format(terrain=bow_tie, objective="[5, 5]"))
    assert main(["check", path]) == 2
    assert capsys.readouterr().err.strip() == (
        f"{path}: terrain[0].polygon: the outline crosses itself at (2 2)")
    tall_out = 'polygon = [[0, 0], [4, 0], [4, 4], [0, 4]]\ntall_part = [[5, 5], [6, 5], [6, 6]]'
    path = write_map(TERRAIN.format(terrain=tall_out, objective="[5, 5]"), name="tall.toml")
    assert main(["check", path]) == 2
    assert "terrain[0].tall_part: lies outside the piece's outline" in capsys.readouterr().err


def test_terrain_and_objectives_off_the_table_are_warnings(write_map, capsys):
    off = 'polygon = [[30, 0], [34, 0], [34, 4], [30, 4]]'
    path = write_map(TERRAIN.format(terrain=off, objective="[100, 5]"))
    assert main(["check", path, "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["problems"] == 0
    assert report["warnings"] == ["terrain t lies wholly off the table",
                                  "objective far at (100, 5) is not on the table"]


def test_check_against_the_published_layout(tmp_path, capsys):
    from pathlib import Path
    ref = Path(__file__).resolve().parent.parent / "maps" / "ca-layout-1-hammer-and-anvil.toml"
    text = ref.read_text(encoding="utf-8")
    # the organiser measured piece B 0.75" right and 0.25" up of where the layout puts it
    moved = text.replace("    [38, 40],\n    [44, 40],\n    [44, 28],\n    [38, 28],",
                         "    [38.75, 40.25],\n    [44.75, 40.25],\n    [44.75, 28.25],\n    [38.75, 28.25],")
    assert moved != text
    measured = tmp_path / "measured.toml"
    measured.write_text(moved, encoding="utf-8")
    assert main(["check", str(measured), "--layout", str(ref), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    devs = {d["id"]: d for d in report["layout"]["deviations"]}
    # a translation by (0.75, 0.25): every point moves hypot(0.75, 0.25) = 0.790569"
    assert devs["B"]["hausdorff"] == pytest.approx(0.790569, abs=1e-4)
    assert devs["B"]["shift"] == pytest.approx([0.75, 0.25])
    assert devs["B"]["turn_deg"] == pytest.approx(0.0)
    assert devs["A"]["hausdorff"] == 0
    # compare's verdict and wording (one comparison): the centre moved hypot(0.75, 0.25)
    assert report["warnings"] == [
        'terrain B is off the published layout: moved 0.79" (0.75" right, 0.25" up, '
        'turned +0.0 deg)']
    assert devs["B"]["ok"] is False and devs["A"]["ok"] is True
    # the gap from B to piece F (a 45-degree piece) changed; B to the top edge is now 3.75"
    gaps = {(g["a"], g["b"]): g["width"] for g in report["terrain_gaps"]}
    assert gaps[("B", "top edge")] == pytest.approx(3.75)
    # within a 1" tolerance it is in place
    assert main(["check", str(measured), "--layout", str(ref), "--layout-tolerance", "1"]) == 0
