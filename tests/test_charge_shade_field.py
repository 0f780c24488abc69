"""Charge odds on the table from one distance field per unit (issue 10 item 1, last bullet):
``rules/reach_odds.py`` over ``geometry/reach_field.py``.

Fight-phase, 30 x 20 table.  c/1 (32mm base, radius 16 / 25.4 = 0.6299") stands at
(15.25, 10.25), on a cell centre of the 0.5" grid (cells centred on 0.25, 0.75, ...).
A cell's value is the chance that 2D6 reaches the path its centre is from c/1's centre
(measurements.csv 40K 10th Charge; "within" is not more than, tolerance 0.02"); the
engagement range plays no part (the model's centre ends at the cell).

An impassable wall x 11.15..11.35, y 7.25..12.25 stands between c/1 and the cell
(7.25, 10.25), 8.0" straight to its left.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from tabletop.board.mapfile import load as load_map
from tabletop.rules.reach_odds import band_odds, odds_field, roll_bands

MAP = """\
[map]
name = "Charge odds field"
ruleset = "fight-phase"
width = 30.0
depth = 20.0

[[players]]
id = "red"
active = true

[[players]]
id = "blue"

[[units]]
id = "c"
player = "red"
base = "32mm"
keywords = ["infantry"]
profile = { M = 6, T = 4, Sv = 5, W = 1 }
models = [[15.25, 10.25]]

[[units]]
id = "e"
player = "blue"
base = "32mm"
keywords = ["infantry"]
profile = { M = 6, T = 3, Sv = 6, W = 1 }
models = [[28, 2]]

[[terrain]]
id = "wall"
kind = "impassable"
polygon = [[11.15, 7.25], [11.35, 7.25], [11.35, 12.25], [11.15, 12.25]]
"""

XS = np.arange(0.25, 30.0, 0.5)
YS = np.arange(0.25, 20.0, 0.5)


def cell(x: float, y: float) -> tuple[int, int]:
    """(row, column) of the cell centred on (x, y)."""
    return int(round((y - 0.25) / 0.5)), int(round((x - 0.25) / 0.5))


@pytest.fixture
def field(write_map):
    st = load_map(write_map(MAP))
    return odds_field(st, "c", XS, YS)


def test_a_clear_cell_gets_the_exact_2d6_chance_of_its_distance(field):
    probs, lengths = field
    # (23.25, 10.25): 8.0" to the right, nothing in the way: 2D6 >= 8, 15/36
    assert lengths[cell(23.25, 10.25)] == pytest.approx(8.0, abs=1e-9)
    assert probs[cell(23.25, 10.25)] == pytest.approx(15 / 36)
    # (23.75, 10.25): 8.5": 2D6 >= 9, 10/36
    assert probs[cell(23.75, 10.25)] == pytest.approx(10 / 36)
    # (15.25, 17.25): 7.0" straight up: 2D6 >= 7, 21/36
    assert probs[cell(15.25, 17.25)] == pytest.approx(21 / 36)
    # (27.25, 10.25): 12.0": only a 12, 1/36; (27.75, 10.25): 12.5", no roll: 0
    assert probs[cell(27.25, 10.25)] == pytest.approx(1 / 36)
    assert probs[cell(27.75, 10.25)] == 0.0 and math.isinf(lengths[cell(27.75, 10.25)])


def test_a_cell_behind_the_wall_gets_the_chance_of_the_long_way_round(field):
    probs, lengths = field
    # straight it would be 8.0" (15/36), but the wall is in the way.  The centre goes round
    # the wall grown by the base's radius, 0.6299 / cos(pi / 32) = 0.6330" (the grown
    # circle's polygon): round the top end, the corners (11.35, 12.25) and (11.15, 12.25).
    # From c/1, the corner is d = sqrt(3.9^2 + 2.0^2) = 4.383" away; the tangent leg is
    # sqrt(d^2 - 0.633^2) = 4.337"; the arc to the top is 0.633 x 0.6187 rad = 0.392"
    # (the tangent point at 54.55 degrees, the top at 90); then 0.2" along the top and the
    # same down the other side: 2 x (4.337 + 0.392) + 0.2 = 9.658" (the bottom end is
    # farther: 3.0" below, not 2.0" above).  2D6 must reach 9.658 - 0.02: a 10 or more,
    # 6/36 = 1/6.
    at = cell(7.25, 10.25)
    assert lengths[at] == pytest.approx(9.658, abs=0.03)
    assert probs[at] == pytest.approx(6 / 36)


def test_no_shade_where_a_centre_cannot_stand(field):
    probs, lengths = field
    # (11.25, 10.25) is inside the wall: no charge ends there
    assert probs[cell(11.25, 10.25)] == 0.0 and math.isinf(lengths[cell(11.25, 10.25)])


def test_the_chance_is_read_per_band_with_the_tolerance():
    ranges, chances = roll_bands("fight-phase")
    assert list(ranges) == [float(r) for r in range(2, 13)]
    # 2D6 >= 8: 5 + 4 + 3 + 2 + 1 = 15 of 36 rolls
    assert chances[6] == pytest.approx(15 / 36)
    got = band_odds(np.asarray([0.0, 2.0, 8.01, 8.03, 12.02, 12.03, np.inf]), ranges, chances, 0.02)
    # 0" and 2": every roll (1); 8.01" is within 0.02" of 8: 15/36; 8.03" needs a 9: 10/36;
    # 12.02" is within the tolerance of 12: 1/36; 12.03": no roll; inf: none
    assert list(got) == pytest.approx([1.0, 1.0, 15 / 36, 10 / 36, 1 / 36, 0.0, 0.0])


def test_rank_and_flank_bands_add_the_move_to_the_higher_d6():
    # Move 4 + the higher of 2D6: a 7.5" path needs the higher die >= 4 (7.5 - 4 = 3.5, so
    # 4): 1 - (3/6)^2 = 27/36; 10" needs a 6: 1 - (5/6)^2 = 11/36; 10.5": none
    ranges, chances = roll_bands("rank-and-flank", 4.0)
    assert list(ranges) == [5.0, 6.0, 7.0, 8.0, 9.0, 10.0]
    got = band_odds(np.asarray([7.5, 10.0, 10.5]), ranges, chances, 0.02)
    assert list(got) == pytest.approx([27 / 36, 11 / 36, 0.0])
