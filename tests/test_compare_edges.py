"""Checking a real table, second audit (issue 10 item 3): every EDGE of a zone or piece is
judged (a deployment line 1" out is off, not "0.50\" left, ok"), tolerances must be finite
and above 0, arrows only on what is off, one wording for a missing -o folder.
Every position is written here; the expected values are worked by hand beside them."""

from __future__ import annotations

import json

import pytest

from tabletop.board.mapfile import load
from tabletop.geometry.layout_compare import compare_layouts
from tests.mapkit import cli

# A 30" x 20" table.  Published: zone "blue" the left 6" (x 0..6), zone "red" the right 6"
# (x 24..30: its deployment line, the edge facing the centre, 6" from the right edge);
# ruin C 12" x 6" at x 9..21, y 7..13 (its east edge 30 - 21 = 9" from the right edge).
HEAD = """
[map]
name = "{name}"
ruleset = "fight-phase"
width = 30
depth = 20
"""

BLUE = """
[[deployment]]
player = "blue"
polygon = [[0, 0], [6, 0], [6, 20], [0, 20]]
"""


def _red(line: float) -> str:
    """Zone red from its deployment line at x = ``line`` to the right edge."""
    return (f'\n[[deployment]]\nplayer = "red"\n'
            f'polygon = [[{line}, 0], [30, 0], [30, 20], [{line}, 20]]\n')


def _c(east: float) -> str:
    """Ruin C from x 9 to ``east``, y 7..13."""
    return (f'\n[[terrain]]\nid = "C"\nkind = "ruin"\n'
            f'polygon = [[9, 7], [{east}, 7], [{east}, 13], [9, 13]]\n')


PUBLISHED = HEAD.format(name="Published") + _c(21) + BLUE + _red(24)


def _measured(line: float = 24, east: float = 21) -> str:
    return HEAD.format(name="Measured") + _c(east) + BLUE + _red(line)


def _diff(write_map, **kw):
    pub = load(write_map(PUBLISHED, "pub.toml"))
    got = load(write_map(_measured(**kw), "got.toml"))
    return {d.id: d for d in compare_layouts(got, pub).items}


# ------------------------------------------------------------- 1. each edge judged
def test_zone_line_one_inch_out_is_off(write_map):
    d = _diff(write_map, line=23)["red"]
    # the line taped at x 23, 7" from the right edge (published 24: 6"); the other three edges
    # are the published ones, so the outlines are 1" apart (Hausdorff: the moved edge), while
    # the centre moves only from x 27 to 26.5: 0.5", within the 0.5" tolerance.  The old
    # comparison judged the centre and passed it.
    assert d.offset == pytest.approx(0.5)
    assert d.edge_offset == pytest.approx(1.0)
    assert d.edge == "facing the centre"
    assert d.edge_from == pytest.approx((7.0, 6.0))        # 30 - 23, 30 - 24
    assert not d.ok
    assert 'the edge facing the centre is 1.00" out (7.00" from the right edge, published 6.00")' \
        in d.off


def test_zone_line_two_inches_out_names_two_inches(write_map):
    d = _diff(write_map, line=26)["red"]
    # the line at x 26 (4" from the right edge, published 6"): the zone 2" narrower, its
    # centre 1" right (27 -> 28); the edge is 2" out, not the 1" the centre tells
    assert d.offset == pytest.approx(1.0)
    assert d.edge_offset == pytest.approx(2.0)
    assert 'the edge facing the centre is 2.00" out (4.00" from the right edge, published 6.00")' \
        in d.off
    # the shape once the centres are aligned differs by 1" (half the 2" on each side): told
    # beside the edge it read as a contradiction, so the edge alone says it
    assert not any(w.startswith("outline differs") for w in d.off)


def test_edge_within_tolerance_is_in_place(write_map):
    d = _diff(write_map, line=23.6)["red"]
    # 0.4" out (<= 0.5"): in place; its centre moves 0.2"
    assert d.ok and d.edge_offset == pytest.approx(0.4) and d.offset == pytest.approx(0.2)


def test_ruin_one_inch_longer_is_off(write_map):
    d = _diff(write_map, east=22)["C"]
    # C 13" long instead of 12": the east edge at x 22, 30 - 22 = 8" from the right edge
    # (published 9"); the centre moves 0.5" (15 -> 15.5), within tolerance, the edge 1" out
    assert d.offset == pytest.approx(0.5)
    assert d.edge_offset == pytest.approx(1.0) and d.edge == "east"
    assert not d.ok
    assert 'the east edge is 1.00" out (8.00" from the right edge, published 9.00")' in d.off


def test_a_whole_move_is_told_once(write_map):
    pub = load(write_map(PUBLISHED, "pub.toml"))
    got = load(write_map(HEAD.format(name="Measured")
                         + '\n[[terrain]]\nid = "C"\nkind = "ruin"\n'
                           'polygon = [[10, 7], [22, 7], [22, 13], [10, 13]]\n'
                         + BLUE + _red(24), "got.toml"))
    d = next(x for x in compare_layouts(got, pub).items if x.id == "C")
    # C moved 1" right whole: every edge 1" out, all of it the move: "moved 1.00"" only
    assert d.edge_offset == pytest.approx(1.0) and d.offset == pytest.approx(1.0)
    assert d.off == ('moved 1.00"',)


def test_json_keeps_keys_and_adds_edge(write_map, capsys):
    pub = write_map(PUBLISHED, "pub.toml")
    got = write_map(_measured(line=23), "got.toml")
    code, out, _ = cli(capsys, "compare", pub, got, "--json")
    red = next(i for i in json.loads(out)["items"] if i["id"] == "red")
    assert code == 1 and red["ok"] is False
    assert red["outline_distance"] == 1.0 and red["offset"] == 0.5     # kept, as before
    assert red["edge_offset"] == 1.0 and red["edge"] == "facing the centre"
    assert red["edge_from_table"] == [7.0, 6.0]
    code, out, _ = cli(capsys, "check", got, "--layout", pub, "--json")
    lay = json.loads(out)["layout"]
    assert lay["in_place"] is False


# ------------------------------------------------------------- 2. tolerances
@pytest.mark.parametrize("flag,value", [
    ("--tolerance", "inf"), ("--tolerance", "nan"), ("--tolerance", "0"),
    ("--tolerance", "-1"), ("--turn-tolerance", "inf"), ("--turn-tolerance", "0"),
    ("--turn-tolerance", "-5"),
])
def test_compare_refuses_bad_tolerance(write_map, capsys, flag, value):
    pub = write_map(PUBLISHED, "pub.toml")
    got = write_map(_measured(), "got.toml")
    code, out, err = cli(capsys, "compare", pub, got, flag, value)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and flag in err and "Traceback" not in err


@pytest.mark.parametrize("flag,value", [("--layout-tolerance", "inf"),
                                        ("--layout-tolerance", "0"),
                                        ("--layout-turn-tolerance", "0")])
def test_check_refuses_bad_tolerance(write_map, capsys, flag, value):
    pub = write_map(PUBLISHED, "pub.toml")
    got = write_map(_measured(), "got.toml")
    code, _, err = cli(capsys, "check", got, "--layout", pub, flag, value)
    assert code == 2 and len(err.strip().splitlines()) == 1 and flag in err


# ------------------------------------------------------------- 4. one -o wording
def test_missing_output_folder_one_wording(write_map, capsys, tmp_path):
    pub = write_map(PUBLISHED, "pub.toml")
    charge_map = write_map(HEAD.format(name="Charge") + """
[[players]]
name = "blue"
[[players]]
name = "red"
[[units]]
id = "a"
player = "blue"
[[units.models]]
id = "a1"
at = [10, 10]
base = "32mm"
[[units]]
id = "b"
player = "red"
[[units.models]]
id = "b1"
at = [16, 10]
base = "32mm"
""", "charge.toml")
    out = tmp_path / "missing" / "x.png"
    folder = str(tmp_path / "missing")
    want = f"{out}: the folder {folder} does not exist (-o makes no folders)"
    errs = []
    for argv in (["compare", pub, pub, "-o", str(out)],
                 ["charge", charge_map, "a", "b", "-o", str(out), "--no-fight"]):
        code, _, err = cli(capsys, *argv)
        errs.append(err.strip())
        assert code == 2
    # compare and charge say it the same way (charge said "-o: no folder ..." before)
    assert errs == [want, want], errs


# ------------------------------------------------------------- 3. arrows only for what is off
def test_arrows_only_for_what_is_off(write_map):
    from tabletop.render.compare import arrows_of

    pub = load(write_map(PUBLISHED, "pub.toml"))
    # C measured as woods 0.01" right (x 9.01..21.01): off for its kind, its move within the
    # tolerance; red's line 1" out (x 23); blue 1" right whole (x 1..7)
    got = load(write_map(HEAD.format(name="Measured")
                         + '\n[[terrain]]\nid = "C"\nkind = "woods"\n'
                           'polygon = [[9.01, 7], [21.01, 7], [21.01, 13], [9.01, 13]]\n'
                         + '\n[[deployment]]\nplayer = "blue"\n'
                           'polygon = [[1, 0], [7, 0], [7, 20], [1, 20]]\n'
                         + _red(23), "got.toml"))
    diff = compare_layouts(got, pub)
    d = {x.id: x for x in diff.items}
    assert not d["C"].ok and d["C"].offset == pytest.approx(0.01)
    assert arrows_of(d["C"], diff) == []               # a 0.01" move gets no arrow
    (sort, a, b), = arrows_of(d["red"], diff)
    # from the middle of the published line (24, 10) to the measured one (23, 10)
    assert sort == "edge" and a == pytest.approx((24, 10)) and b == pytest.approx((23, 10))
    (sort, a, b), = arrows_of(d["blue"], diff)
    # the whole zone moved: its centre (3, 10) -> (4, 10), no edge arrow besides
    assert sort == "move" and a == pytest.approx((3, 10)) and b == pytest.approx((4, 10))
