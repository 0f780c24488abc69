"""``tabletop layout import|export`` after the r12 audit (/work/notes/audit-r12.md findings
2, 5, 8, 11, 12, 14): a template's composed features, bounded JSON, errors located in the
input file, values the schema refuses, duplicates, and an objective's name and range kept
on export.  Positions are our own; every expected value is worked by hand beside it.  The
JSON is y-down on a 60" x 44" table, the map y-up: (x, y) -> (x, 44 - y).
"""

from __future__ import annotations

import json

import pytest

from tabletop.cli import main
from tabletop.layout_io.read import read_files, to_map_dict

GV = {"edition": "11th", "dataslate": "pre-launch-provisional"}


def run(capsys, *argv, code=0):
    got = main([str(a) for a in argv])
    out = capsys.readouterr()
    assert got == code, out.err
    return out


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
        err = run(capsys, "layout", "import", path, "-o", tmp_path / "o.toml", code=2).err
        assert err.count("\n") == 1 and want in err, err
