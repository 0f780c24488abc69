"""Polylines and swept footprints for moves (tabletop/geometry/sweeps.py), by hand."""

from __future__ import annotations

import pytest

from tabletop.board.bases import parse_base
from tabletop.geometry.sweeps import cut_path, overlap_gap, path_length, samples, sweep_core

L_PATH = [(0.0, 0.0), (3.0, 0.0), (3.0, 4.0)]       # 3 + 4 = 7"


def test_path_length_sums_the_segments():
    assert path_length(L_PATH) == pytest.approx(7.0)
    assert path_length([(1.0, 1.0)]) == 0.0


def test_cut_path_keeps_the_first_inches():
    assert cut_path(L_PATH, 2.5) == [(0.0, 0.0), (2.5, 0.0)]
    # 3" along x, then 2" of the 4" up
    assert cut_path(L_PATH, 5.0) == [(0.0, 0.0), (3.0, 0.0), (3.0, 2.0)]
    assert cut_path(L_PATH, 9.0) == L_PATH


def test_samples_cover_every_vertex_and_step():
    pts = samples(L_PATH, 1.0)
    # 0, 1, 2, 3 along x then 4, 5, 6, 7 up: 8 points, arc lengths 0..7
    assert [round(s, 9) for s, _, _ in pts] == [0, 1, 2, 3, 4, 5, 6, 7]
    assert pts[-1][1] == (3.0, 4.0) and pts[-1][2] == 1


def test_round_sweep_is_the_path_padded_by_the_radius():
    base = parse_base("32mm")
    core, pad = sweep_core(base, 90.0, L_PATH)
    assert pad == pytest.approx(16 / 25.4)
    assert core.length == pytest.approx(7.0)


def test_rectangle_sweep_is_the_hull_of_its_two_ends():
    # 25x50mm facing +x: 50mm (1.9685") along x, 25mm (0.98425") across; moved 2" along x:
    # a 3.9685 x 0.98425 rectangle
    base = parse_base("25x50mm")
    core, pad = sweep_core(base, 0.0, [(0.0, 0.0), (2.0, 0.0)])
    assert pad == 0.0
    assert core.area == pytest.approx((50 / 25.4 + 2.0) * 25 / 25.4, rel=1e-6)


def test_overlap_gap_of_two_polygons():
    base = parse_base("25x25mm")                      # 0.98425" squares
    a, _ = sweep_core(base, 0.0, [(0.0, 0.0)])
    touching, _ = sweep_core(base, 0.0, [(25 / 25.4, 0.0)])
    into, _ = sweep_core(base, 0.0, [(0.9, 0.0)])      # 0.084" into it
    tol = 0.02
    assert overlap_gap(a, 0.0, touching, 0.0, tol) == pytest.approx(0.0, abs=1e-9)
    assert overlap_gap(a, 0.0, into, 0.0, tol) == -2 * tol      # reads "overlapping"
