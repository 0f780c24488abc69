"""tabletop layout import/export (tabletop/layout_io): the 40kdc-data terrain-layout JSON.

Positions are our own (tests/scenarios/layout/two-pieces.json and inline layouts); every
expected point is worked by hand below.  The JSON is y-down from the top-left corner of
a 60" x 44" table, the map y-up from the bottom-left: (x, y) -> (x, 44 - y).
"""

from __future__ import annotations

import json
import math
import os

import pytest

from tabletop.board import mapfile
from tabletop.cli import main
from tabletop.layout_io.read import read_files, to_map_dict

HERE = os.path.dirname(__file__)
TWO = os.path.join(HERE, "scenarios", "layout", "two-pieces.json")
HAMMER = os.path.join(HERE, "..", "maps", "ca-layout-1-hammer-and-anvil.toml")
R = math.sqrt(2) / 2      # cos 45 = sin 45


def _pts(poly):
    return [[float(x), float(y)] for x, y in poly]


def _close(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g == pytest.approx(w, abs=1e-6)


def test_two_pieces_polygons_by_hand():
    data = to_map_dict(read_files([TWO]), TWO)
    ruin, wedge = data["terrain"]
    # ruin-a: 6x4 rectangle, corners (0,0) (6,0) (6,4) (0,4), centroid (3,2): offsets
    # (-3,-2) (3,-2) (3,2) (-3,2).  Clockwise 45 on the y-down page:
    # x' = R(x - y), y' = R(x + y) -> (-R, -5R) (5R, R) (R, 5R) (-5R, -R); + (20, 10);
    # then y -> 44 - y.
    assert ruin["kind"] == "ruin"            # 5" >= RUIN_MIN_HEIGHT_IN 3"
    _close(_pts(ruin["polygon"]), [[20 - R, 44 - (10 - 5 * R)], [20 + 5 * R, 44 - (10 + R)],
                                   [20 + R, 44 - (10 + 5 * R)], [20 - 5 * R, 44 - (10 - R)]])
    # 5" >= TALL_MIN_HEIGHT_IN 4" and no wall features: tall all over
    _close(_pts(ruin["tall_part"]), _pts(ruin["polygon"]))
    # barricade-b: right triangle (0,0) (3,0) (0,6), centroid (1,2): offsets (-1,-2) (2,-2)
    # (-1,4); mirror horizontal negates x: (1,-2) (-2,-2) (1,4); + (40,30): (41,28) (38,28)
    # (41,34); y -> 44 - y: (41,16) (38,16) (41,10)
    assert wedge["kind"] == "obstacle"       # 2" < 3"
    assert "tall_part" not in wedge
    _close(_pts(wedge["polygon"]), [[41, 16], [38, 16], [41, 10]])
    # the pattern's objectives (30,22) and (50,6): (30, 44-22) and (50, 44-6)
    assert [o["at"] for o in data["objectives"]] == [[30, 22], [50, 38]]
    # attacker: a 60x12 rectangle from (0,0): rows y 0..12 down -> map y 44..32
    # defender: the polygon from (0,32): rows 32..44 down -> map y 12..0
    att, dfn = data["deployment"]
    assert att["player"] == "attacker" and dfn["player"] == "defender"
    _close(_pts(att["polygon"]), [[0, 44], [60, 44], [60, 32], [0, 32]])
    _close(_pts(dfn["polygon"]), [[0, 12], [60, 12], [60, 0], [0, 0]])
    assert data["rules"] == {"edition": "10th"}
    assert (data["map"]["width"], data["map"]["depth"]) == (60.0, 44.0)


def test_import_command_writes_a_map_check_passes(tmp_path, capsys):
    out = tmp_path / "two.toml"
    assert main(["layout", "import", TWO, "-o", str(out)]) == 0
    state = mapfile.load(str(out))
    assert [t.id for t in state.terrain] == ["ruin-a", "barricade-b"]
    assert {p.id for p in state.players} == {"attacker", "defender"}
    capsys.readouterr()
    assert main(["check", str(out)]) == 0
    # an existing output is refused without --force (exit 2, one line), taken with it
    assert main(["layout", "import", TWO, "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "already exists" in err[0]
    assert main(["layout", "import", TWO, "-o", str(out), "--force"]) == 0


def test_walls_become_the_tall_part_and_bare_markers_objectives(tmp_path):
    lay = {"id": "walls", "name": "walls", "game_version": {"edition": "11th", "dataslate": "x-1"},
           "pieces": [
               {"id": "ruin-c", "footprint": {"type": "rectangle", "width": 10, "height": 6},
                "position": {"x": 30, "y": 22}, "height_inches": 3},
               {"id": "ruin-c-wall", "piece_type": "feature", "parent_area_id": "ruin-c",
                "footprint": {"type": "rectangle", "width": 10, "height": 1},
                "position": {"x": 0, "y": -2.5}, "height_inches": 5},
               {"id": "marker", "terrain": False, "is_objective": True,
                "footprint": {"type": "rectangle", "width": 1, "height": 1},
                "position": {"x": 12, "y": 8},
                "objective": {"control_range_inches": 3}}]}
    path = tmp_path / "walls.json"
    path.write_text(json.dumps(lay))
    data = to_map_dict(read_files([str(path)]), str(path))
    (ruin,) = data["terrain"]                # the bare marker is not terrain
    # ruin-c: 10x6 about (30,22): x 25..35, y-down 19..25 -> map y 25..19
    _close(_pts(ruin["polygon"]), [[25, 25], [35, 25], [35, 19], [25, 19]])
    assert ruin["kind"] == "ruin"            # it has walls
    # the wall: 10x1, centroid (5, 0.5), at (0,-2.5) in the area's frame: (-5,-3) (5,-3)
    # (5,-2) (-5,-2); + (30,22): y-down 19..20 -> map y 25..24
    _close(_pts(ruin["tall_part"]), [[25, 25], [35, 25], [35, 24], [25, 24]])
    # the marker: (12, 8) -> (12, 36), control range 3"
    assert data["objectives"] == [{"id": "objective-1", "at": [12, 36], "range": 3.0,
                                   "name": "marker"}]


def test_export_then_import_round_trips_hammer_and_anvil(tmp_path):
    js, back = tmp_path / "ha.json", tmp_path / "ha.toml"
    assert main(["layout", "export", HAMMER, "-o", str(js)]) == 0
    entities = json.loads(js.read_text())
    assert [("pieces" in e, "zones" in e) for e in entities] == [(True, False), (False, True)]
    assert main(["layout", "import", str(js), "-o", str(back)]) == 0
    a, b = mapfile.load(HAMMER), mapfile.load(str(back))
    assert len(a.terrain) == len(b.terrain) == 12
    for ta, tb in zip(a.terrain, b.terrain):
        _close(_pts(tb.polygon), _pts(ta.polygon))
        assert tb.kind == ta.kind            # ruins and obstacles come back as they went
        assert (ta.tall_part is None) == (tb.tall_part is None)
        if ta.tall_part is not None:
            _close(_pts(tb.tall_part), _pts(ta.tall_part))
    assert len(a.objectives) == len(b.objectives) == 5
    for oa, ob in zip(a.objectives, b.objectives):
        assert list(ob.at) == pytest.approx(list(oa.at), abs=1e-6)
    assert len(a.deployment) == len(b.deployment) == 2
    for da, db in zip(a.deployment, b.deployment):
        _close(_pts(db.polygon), _pts(da.polygon))
    # the map's own player ids come back (carried in the zones' names, "... [marines]")
    assert [d.player for d in b.deployment] == ["marines", "orks"]
    assert main(["check", str(back)]) == 0


@pytest.mark.parametrize("name", ["ca-layout-1-hammer-and-anvil", "ca-layout-1-table",
                                  "ca-layout-2-crucible-of-battle", "ca-layout-2-table"])
def test_round_trip_keeps_every_id_player_and_the_name(tmp_path, capsys, name):
    # issue 12 finding 5: before, pieces A/B/C came back as t-a/t-b/t-c, objective centre
    # as objective-1, players as attacker/defender, and the name doubled ("X / X deployment")
    src = os.path.join(HERE, "..", "maps", f"{name}.toml")
    js, back = tmp_path / "x.json", tmp_path / "rt.toml"
    assert main(["layout", "export", src, "-o", str(js)]) == 0
    # still valid against the schema (the reader validates with extra fields refused)
    assert len(read_files([str(js)]).layouts) == 1
    assert main(["layout", "import", str(js), "-o", str(back)]) == 0
    a, b = mapfile.load(src), mapfile.load(str(back))
    assert b.name == a.name
    assert [(t.id, t.name) for t in b.terrain] == [(t.id, t.name) for t in a.terrain]
    assert [(o.id, o.name) for o in b.objectives] == [(o.id, o.name) for o in a.objectives]
    assert [(d.player, d.name) for d in b.deployment] == [(d.player, d.name) for d in a.deployment]
    assert {p.id for p in b.players} == {p.id for p in a.players}
    capsys.readouterr()
    assert main(["compare", src, str(back), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["in_place"] and not got["missing_items"] and not got["extra_items"]
    assert {i["matched_by"] for i in got["items"]} == {"id"}
    assert len([i for i in got["items"] if i["sort"] == "terrain"]) == 12


def test_a_tag_that_is_not_the_pieces_own_id_is_left_in_the_name():
    # a third-party piece named "Ruin [north]" with id "ruin-3": "north" does not turn into
    # ruin-3, so the name stays whole and the id is the entity id
    from tabletop.layout_io.carry import entity_id, untag
    assert untag("Ruin [north]", "ruin-3", lambda t: entity_id(t, "t")) == (None, "Ruin [north]")
    assert untag("Ruin [A]", "t-a-2", lambda t: entity_id(t, "t")) == ("A", "Ruin")
    assert untag("[B2]", "b2", lambda t: entity_id(t, "t")) == ("B2", None)


@pytest.mark.parametrize("text, where", [
    ("{not json", "line 1 column 2"),
    (json.dumps({"id": "x1", "name": "x", "game_version": {"edition": "10th", "dataslate": "a-b"},
                 "pieces": [{"footprint": {"type": "rectangle", "width": 2, "height": 2},
                             "position": {"x": 1, "y": 1}, "rotation_degrees": 400}]}),
     "pieces[0].rotation_degrees"),
    (json.dumps([{"id": "x1", "name": "x", "game_version": {"edition": "10th", "dataslate": "a-b"},
                  "pieces": [{"footprint": {"type": "rectangle", "width": -2, "height": 2},
                              "position": {"x": 1, "y": 1}}]}]),
     "[0].pieces[0].footprint.width"),
    (json.dumps({"id": "x1", "name": "x", "game_version": {"edition": "10th", "dataslate": "a-b"},
                 "pieces": [{"template": "ruin-12x6", "position": {"x": 1, "y": 1}}]}),
     "template ruin-12x6: not given"),
    (json.dumps({"hello": 1}), "not a terrain layout"),
])
def test_bad_input_one_located_line(tmp_path, capsys, text, where):
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    assert main(["layout", "import", str(bad), "-o", str(tmp_path / "o.toml")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(str(bad)) and where in err[0], err
    assert not (tmp_path / "o.toml").exists()


def test_export_refuses_a_non_json_name_and_the_input(tmp_path, capsys):
    assert main(["layout", "export", HAMMER, "-o", str(tmp_path / "x.toml")]) == 2
    assert main(["layout", "export", HAMMER, "-o", HAMMER]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 2


def test_json_contract(tmp_path, capsys):
    from test_json_contract import Contract
    out, js = tmp_path / "two.toml", tmp_path / "two.json"
    c = Contract("layout-import")
    assert main(["layout", "import", TWO, "-o", str(out), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    c.check(got, "two pieces")
    assert got["warnings"] == []
    assert got["terrain"] == [{"id": "ruin-a", "kind": "ruin", "tall_part": True},
                              {"id": "barricade-b", "kind": "obstacle", "tall_part": False}]
    # the wedge moved to x = 70 on the 60" table: imported, with a warning in "warnings"
    with open(TWO, encoding="utf-8") as f:
        far = json.load(f)
    far[0]["pieces"][1]["position"]["x"] = 70
    src = tmp_path / "far.json"
    src.write_text(json.dumps(far), encoding="utf-8")
    assert main(["layout", "import", str(src), "-o", str(tmp_path / "far.toml"), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    c.check(got, "a piece off the table")
    c.assert_covered()
    assert len(got["warnings"]) == 1 and '(id "barricade-b"): reaches off the 60" x 44"' in got["warnings"][0]
    e = Contract("layout-export")
    assert main(["layout", "export", str(out), "-o", str(js), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    e.check(got, "two pieces")
    e.assert_covered()
    # two areas, no wall features (the ruin is tall all over); two objectives; two zones
    assert (got["pieces"], got["objectives"], got["zones"]) == (2, 2, 2)


def _one_piece_layout(**over):
    piece = {"id": "ab", "footprint": {"type": "rectangle", "width": 2, "height": 2},
             "position": {"x": 10, "y": 10}}
    piece.update(over.pop("piece", {}))
    doc = {"id": "lay", "name": "lay", "game_version": {"edition": "10th", "dataslate": "a-b"},
           "pieces": [piece]}
    doc.update(over)
    return doc


def _import_err(tmp_path, capsys, name, text):
    src = tmp_path / name
    src.write_text(text)
    assert main(["layout", "import", str(src), "-o", str(tmp_path / "out.toml")]) == 2
    return capsys.readouterr().err.strip().splitlines()


def test_an_oversized_board_names_the_input_field_not_the_map(tmp_path, capsys):
    # issue 12 finding 6: board.width 1e9 > MAX_TABLE_INCHES 1200; before:
    # "out.toml: map.width: ..." (the map never written)
    lines = _import_err(tmp_path, capsys, "board-huge.json",
                        json.dumps(_one_piece_layout(board={"width": 1e9, "height": 44})))
    assert lines == [f"{tmp_path / 'board-huge.json'}: board.width: the table size is "
                     "inches; 1e+09\" is more than 1200\" (MAX_TABLE_INCHES)"]


@pytest.mark.parametrize("piece, field, shown_as", [
    ({"position": {"x": 1e308, "y": 10}}, "position.x", "1e+308"),
    ({"footprint": {"type": "rectangle", "width": 1e9, "height": 2}}, "footprint.width", "1e+09"),
])
def test_one_broken_value_is_one_line_naming_the_input_field(tmp_path, capsys, piece, field,
                                                            shown_as):
    # issue 12 finding 7: one line about the field written (|v| > MAX_COORD_INCHES 10000),
    # not two about the points computed from it
    lines = _import_err(tmp_path, capsys, "pos.json", json.dumps(_one_piece_layout(piece=piece)))
    assert len(lines) == 1
    assert lines[0].startswith(f"{tmp_path / 'pos.json'}: pieces[0] (id \"ab\"): {field}: ")
    assert lines[0].endswith(f"(MAX_COORD_INCHES), got {shown_as}")


def test_a_400_digit_number_is_shortened_in_the_message(tmp_path, capsys):
    # 10**400: 401 digits, shown as 1e+400 (mantissa 1.000 -> 1)
    text = json.dumps(_one_piece_layout(piece={"position": {"x": "X", "y": 10}}))
    lines = _import_err(tmp_path, capsys, "big.json", text.replace('"X"', "1" + "0" * 400))
    assert len(lines) == 1 and lines[0].endswith("got 1e+400") and len(lines[0]) < 200
    from tabletop.layout_io.read import shown
    assert shown(-12345 * 10 ** 30) == "-1.234e+34"     # 35 digits: 1.2345.. cut to 1.234
    assert shown("x" * 100) == "'" + "x" * 36 + "..."    # repr cut to 40 characters


def _pattern(pid, zone_at=(0, 0)):
    return {"id": pid, "name": pid, "game_version": {"edition": "10th", "dataslate": "a-b"},
            "zones": [{"player": "attacker", "position": {"x": zone_at[0], "y": zone_at[1]},
                       "shape": {"type": "rectangle", "width": 20, "height": 10}}]}


def test_an_unknown_deployment_pattern_id_is_refused_with_the_patterns_listed(tmp_path, capsys):
    # issue 12 finding 8: the layout names "nope", the file holds only "dawn": before, dawn
    # was used silently
    doc = [_one_piece_layout(deployment_pattern_id="nope"), _pattern("dawn")]
    lines = _import_err(tmp_path, capsys, "lay.json", json.dumps(doc))
    assert lines == [f"{tmp_path / 'lay.json'}: [0].deployment_pattern_id: nope: no deployment "
                     "pattern in the files has that id (there are: dawn); pass --deployment ID "
                     "to use another"]
    # --deployment picks one by hand: imported
    src = tmp_path / "lay.json"
    assert main(["layout", "import", str(src), "--deployment", "dawn",
                 "-o", str(tmp_path / "ok.toml")]) == 0


def test_a_zone_off_the_table_is_imported_with_a_warning(tmp_path, capsys):
    # a 20x10 zone at y-down (50, 0) on the 60x44 default board: x 50..70 (10" past the
    # right edge), y-down 0..10 -> map y 44 - 10 = 34 .. 44
    src = tmp_path / "lay.json"
    src.write_text(json.dumps([_one_piece_layout(deployment_pattern_id="dawn"),
                               _pattern("dawn", (50, 0))]))
    assert main(["layout", "import", str(src), "-o", str(tmp_path / "z.toml"), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["warnings"] == [f"{src}: [1].zones[0]: the zone reaches off the 60\" x 44\" "
                               "table (x 50..70, y 34..44 on the map)"]
