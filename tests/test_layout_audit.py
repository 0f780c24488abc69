"""``tabletop layout import|export`` after the r12 new-user audit (its findings
2, 5, 8, 11, 12, 14): a template's composed features, bounded JSON, errors located in the
input file, values the schema refuses, duplicates, and an objective's name and range kept
on export.  Positions are our own; every expected value is worked by hand beside it.  The
JSON is y-down on a 60" x 44" table, the map y-up: (x, y) -> (x, 44 - y).
"""

from __future__ import annotations

import json

import pytest

from tabletop.layout_io.read import read_files, to_map_dict
from tests.mapkit import cli_expect

GV = {"edition": "11th", "dataslate": "pre-launch-provisional"}


def _bbox(poly):
    xs = [float(p[0]) for p in poly]
    ys = [float(p[1]) for p in poly]
    return [min(xs), max(xs), min(ys), max(ys)]


def _layout(pieces, templates=()):
    return list(templates) + [{"id": "lay", "name": "Lay", "pieces": pieces,
                               "game_version": GV}]


WALL = {"id": "wall-6", "kind": "feature", "footprint": {"type": "rectangle", "width": 6,
                                                          "height": 0.5},
        "default_height_inches": 5, "game_version": GV}


def _block(height):
    return {"id": "block", "kind": "area", "default_height_inches": height,
            "footprint": {"type": "rectangle", "width": 8, "height": 5}, "game_version": GV,
            "features": [{"template": "wall-6", "position": {"x": 0, "y": -2.25}}]}


# ------------------------------------------------------------------ 2: composed features

@pytest.mark.parametrize("height", [4, 3.5])
def test_template_features_become_the_tall_part(tmp_path, height):
    f = tmp_path / "l.json"
    f.write_text(json.dumps(_layout([{"id": "bk", "template": "block", "position":
                                      {"x": 30, "y": 8}, "rotation_degrees": 90}],
                                     [WALL, _block(height)])))
    row = to_map_dict(read_files([str(f)]), str(f))["terrain"][0]
    # the wall 6 x 0.5 about its centroid (0, -2.25) in the block's frame: x -3..3,
    # y -2.5..-2; turned 90 clockwise (x, y) -> (-y, x): x 2..2.5, y -3..3; at (30, 8):
    # x 32..32.5, y 5..11 down -> map y 33..39.  The block itself (5 x 8 turned) is
    # x 27.5..32.5, map y 32..40; with 4" or 3.5" the wall (5") is its only tall part
    assert row["kind"] == "ruin"
    assert _bbox(row["polygon"]) == pytest.approx([27.5, 32.5, 32, 40])
    assert _bbox(row["tall_part"]) == pytest.approx([32, 32.5, 33, 39])


def test_template_feature_without_its_template_is_named(tmp_path):
    f = tmp_path / "l.json"
    f.write_text(json.dumps(_layout([{"id": "bk", "template": "block", "position":
                                      {"x": 30, "y": 8}}], [_block(4)])))
    with pytest.raises(Exception, match=r"pieces\[0\].*features\[0\]: template wall-6"):
        to_map_dict(read_files([str(f)]), str(f))


# ------------------------------------------------------------------ 5: numbers, nesting

def test_huge_number_and_deep_nesting_one_located_line(capsys, tmp_path):
    big = tmp_path / "big.json"
    big.write_text('[\n{"x": ' + "1" * 5000 + "}]\n")   # the number on line 2
    deep = tmp_path / "deep.json"
    deep.write_text("\n" + "[" * 100_000)             # the arrays on line 2
    for path, want in ((big, "big.json: line 2: a number of 5000 digits"),
                       (deep, "deep.json: line 2: arrays and objects nested 100000 deep")):
        err = cli_expect(capsys, "layout", "import", path, "-o", tmp_path / "o.toml", code=2).err
        assert err.count("\n") == 1 and want in err, err


# ------------------------------------------------------------------ 8, 12: errors located

SQUARE = {"type": "rectangle", "width": 4, "height": 4}


def test_map_errors_name_the_input_file_and_piece(capsys, tmp_path):
    f = tmp_path / "bad.json"
    # pieces[1] a bow tie (0,0) (4,4) (4,0) (0,4): its edges cross at its centre (2, 2),
    # placed with its centroid (2, 2) at (30, 22): crosses at (30, 44 - 22) = (30, 22)
    bow = {"type": "polygon", "points": [{"x": 0, "y": 0}, {"x": 4, "y": 4},
                                         {"x": 4, "y": 0}, {"x": 0, "y": 4}]}
    f.write_text(json.dumps(_layout([
        {"id": "ok-1", "footprint": SQUARE, "position": {"x": 10, "y": 10}},
        {"id": "tie", "footprint": bow, "position": {"x": 30, "y": 22}}])))
    out = tmp_path / "o.toml"
    err = cli_expect(capsys, "layout", "import", f, "-o", out, code=2).err
    # the file holds [template..., layout]: the layout is [0] here (no templates)
    assert err == f'{f}: [0].pieces[1] (id "tie"): polygon: the outline crosses itself at (30 22)\n'
    assert str(out) not in err and not out.exists()


def test_a_wall_outside_its_area_names_the_wall_piece(capsys, tmp_path):
    f = tmp_path / "w.json"
    # the area 4 x 4 at (30, 22); the wall 6 x 0.5 at (10, 0) in its frame: x 27..33 + 10,
    # wholly outside the area: the tall part's problem is the wall's, pieces[1]
    f.write_text(json.dumps(_layout([
        {"id": "area", "footprint": SQUARE, "position": {"x": 30, "y": 22}},
        {"id": "wall", "piece_type": "feature", "parent_area_id": "area",
         "footprint": {"type": "rectangle", "width": 6, "height": 0.5},
         "position": {"x": 10, "y": 0}}])))
    err = cli_expect(capsys, "layout", "import", f, "-o", tmp_path / "o.toml", code=2).err
    assert err.startswith(f'{f}: [0].pieces[1] (id "wall"): tall_part: ') and err.count("\n") == 1


def test_duplicate_ids_and_no_shape_are_said_plainly(capsys, tmp_path):
    f = tmp_path / "d.json"
    f.write_text(json.dumps(_layout([
        {"id": "twin", "footprint": SQUARE, "position": {"x": 10, "y": 10}},
        {"id": "twin", "footprint": SQUARE, "position": {"x": 30, "y": 10}},
        {"id": "blank", "position": {"x": 50, "y": 10}}])))
    err = cli_expect(capsys, "layout", "import", f, "-o", tmp_path / "o.toml", code=2).err
    assert err.splitlines() == [
        f'{f}: [0].pieces[1] (id "twin"): id twin: also the id of pieces[0]; every piece of '
        "a layout has its own id",
        f'{f}: [0].pieces[2] (id "blank"): neither a footprint nor a template: a piece needs '
        "one to have a shape"]


# ------------------------------------------------------------------ 11: schema types, off table

@pytest.mark.parametrize("key, value", [("rotation_degrees", True), ("rotation_degrees", "30")])
def test_a_number_written_as_true_or_text_is_refused(capsys, tmp_path, key, value):
    f = tmp_path / "t.json"
    f.write_text(json.dumps(_layout([{"id": "sq", "footprint": SQUARE,
                                      "position": {"x": 10, "y": 10}, key: value}])))
    err = cli_expect(capsys, "layout", "import", f, "-o", tmp_path / "o.toml", code=2).err
    assert err == f"{f}: [0].pieces[0].{key}: Input should be a valid number, got {value!r}\n"


def test_position_as_text_is_refused(capsys, tmp_path):
    f = tmp_path / "t.json"
    f.write_text(json.dumps(_layout([{"id": "sq", "footprint": SQUARE,
                                      "position": {"x": "30", "y": 10}}])))
    err = cli_expect(capsys, "layout", "import", f, "-o", tmp_path / "o.toml", code=2).err
    assert "[0].pieces[0].position.x: Input should be a valid number, got '30'" in err


def test_a_piece_off_the_table_is_warned(capsys, tmp_path):
    f = tmp_path / "t.json"
    # a 4 x 4 square centred at (500, -200) y-down: x 498..502, y -202..-198 down, map
    # y 44 + 198 = 242 .. 246: wholly off the 60 x 44 table; imported, with a warning
    f.write_text(json.dumps(_layout([{"id": "far", "footprint": SQUARE,
                                      "position": {"x": 500, "y": -200}},
                                     {"id": "near", "footprint": SQUARE,
                                      "position": {"x": 2, "y": 2}}])))   # x 0..4: on it
    got = cli_expect(capsys, "layout", "import", f, "-o", tmp_path / "o.toml")
    assert got.err == (f'warning: {f}: [0].pieces[0] (id "far"): reaches off the 60" x 44" '
                       "table (x 498..502, y 242..246 on the map)\n")
    # --json carries the same line in "warnings" (stderr still has it)
    got = cli_expect(capsys, "layout", "import", f, "-o", tmp_path / "o2.toml", "--json")
    assert json.loads(got.out)["warnings"] == [
        f'{f}: [0].pieces[0] (id "far"): reaches off the 60" x 44" table (x 498..502, y 242..246 '
        "on the map)"]



def test_warnings_are_capped_as_errors_are(capsys, tmp_path):
    f = tmp_path / "t.json"
    # 60 squares 4 x 4 centred at x = 65 + i/10 (i 0..59): x 63..67 and up, all past the
    # 60" edge, y -202..-198 down = map y 242..246: each one warning.  Warnings print as
    # errors do (errors.capped): the first 50, then one line for the other 10
    f.write_text(json.dumps(_layout([{"id": f"p{i}", "footprint": SQUARE,
                                      "position": {"x": 65 + i / 10, "y": -200}}
                                     for i in range(60)])))
    got = cli_expect(capsys, "layout", "import", f, "-o", tmp_path / "o.toml")
    lines = got.err.splitlines()
    assert len(lines) == 51
    assert lines[49].startswith(f'warning: {f}: [0].pieces[49] (id "p49"): reaches off')
    assert lines[50] == (f"warning: {f}: ... and 10 more warnings (only the first 50 are "
                         "shown: MAX_ERROR_LINES)")
    # --json keeps every warning in "warnings"
    got = cli_expect(capsys, "layout", "import", f, "-o", tmp_path / "o2.toml", "--json")
    assert len(json.loads(got.out)["warnings"]) == 60

# ------------------------------------------------------------------ 14: objectives round trip

RT_MAP = """
[map]
name = "Round trip"
ruleset = "fight-phase"
width = 60
depth = 44

[[players]]
id = "attacker"
active = true

[[players]]
id = "defender"

[[objectives]]
id = "mid"
at = [30, 22]
range = 3
name = "Centre objective"

[[objectives]]
id = "west"
at = [10, 22]

[[deployment]]
player = "attacker"
polygon = [[0, 44], [60, 44], [60, 34], [0, 34]]

[[deployment]]
player = "defender"
polygon = [[0, 0], [60, 0], [60, 10], [0, 10]]
"""


def test_export_keeps_an_objectives_name_and_range(capsys, tmp_path):
    src = tmp_path / "m.toml"
    src.write_text(RT_MAP)
    js = tmp_path / "m.json"
    cli_expect(capsys, "layout", "export", src, "-o", js)
    back = tmp_path / "back.toml"
    cli_expect(capsys, "layout", "import", js, "-o", back)
    from tabletop.board.mapfile import load
    objs = {tuple(o.at): (o.name, o.range) for o in load(str(back)).objectives}
    # (30, 22) keeps its name and its 3" range; (10, 22), a bare point, comes back at the
    # same place (y-down 44 - 22 = 22 and back) with the ruleset's range (None)
    assert objs[(30, 22)] == ("Centre objective", 3)
    assert objs[(10, 22)][1] is None and len(objs) == 2
