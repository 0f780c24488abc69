"""Contact slots and their assignment (tabletop/geometry/assign.py), by hand."""

from __future__ import annotations

import numpy as np

from tabletop.geometry.assign import min_cost_assignment


def test_hungarian_finds_the_least_total_cost():
    # rows -> columns: greedy by row takes 0->1 (1), then 1->0 (2), then 2->2 (2): 5, which
    # is also the optimum here; the other 5 permutations cost 4+0+2=6, 4+5+2=11, 1+5+3=9,
    # 3+2+2=7 and 3+0+3=6
    cost = np.array([[4.0, 1.0, 3.0], [2.0, 0.0, 5.0], [3.0, 2.0, 2.0]])
    assert min_cost_assignment(cost) == [1, 0, 2]


def test_hungarian_beats_nearest_first():
    # nearest first gives row 0 its cheapest column 0 (1) and leaves row 1 column 1 (10):
    # 11; the optimum swaps them: 2 + 3 = 5
    cost = np.array([[1.0, 2.0], [3.0, 10.0]])
    assert min_cost_assignment(cost) == [1, 0]


def test_more_columns_than_rows_and_dummy_columns():
    # a model with no reachable slot takes its "no slot" column (cost 100) rather than a
    # forbidden one (1000): row 1 can only be left out
    cost = np.array([[5.0, 1000.0, 100.0, 100.0], [1000.0, 1000.0, 100.0, 100.0]])
    got = min_cost_assignment(cost)
    assert got[0] == 0 and got[1] in (2, 3)
