"""Issue 11 item 1 (pile-in speed): the pieces measured at once give the answers
they gave one at a time.  ``reach.best_on_routes`` picks each route's best end
point from one array of every route's samples; ``validator.possible_findings``
adds the "if possible" findings to a check already made (fight-phase.txt 12.03).

32mm bases: radius 0.62992", 1.25984" centre to centre in contact; 11th preset:
engagement range 2", tolerance 0.02".
"""

from __future__ import annotations

import pytest
from moves_support import pile_in_spec, scenario

from tabletop.board.mapfile import from_dict
from tabletop.geometry import snapshot
from tabletop.geometry.movespec import MoveContext
from tabletop.geometry.paths import Route
from tabletop.geometry.reach import best_on_route, best_on_routes
from tabletop.geometry.validator import check, possible_findings


def _one_on_one():
    # r/1 at (10, 10); e/1 6" north at (10, 16): 6 - 1.25984 = 4.74016" edge to edge, a
    # pile-in target within 5" (11th), not engaged
    state = from_dict({
        "map": {"name": "one on one", "ruleset": "fight-phase", "width": 30, "depth": 30},
        "players": [{"id": "red", "active": True}, {"id": "blue"}],
        "units": [{"id": "r", "player": "red", "base": "32mm", "models": [[10, 10]]},
                  {"id": "e", "player": "blue", "base": "32mm", "models": [[10, 16]]}]})
    geo = snapshot(state)
    return state, geo, MoveContext(state, geo, pile_in_spec(state, geo))


def test_each_routes_best_end_measured_at_once():
    state, geo, ctx = _one_on_one()
    assert ctx.start_dist["r/1"] == pytest.approx(4.74016, abs=1e-5)
    north = Route([(10.0, 10.0), (10.0, 13.0)], False, (10.0, 16.0), 1)
    short = Route([(10.0, 10.0), (10.0, 12.0)], False, (10.0, 16.0), 1)
    bent = Route([(10.0, 10.0), (11.0, 11.0), (11.0, 12.0)], False, (10.0, 16.0), 1)
    still = Route([(10.0, 10.0)], True, (10.0, 16.0), 1)
    got = best_on_routes(ctx, "r/1", [north, still, short, bent], "e/1")
    assert got[1] is None                          # one point: no move
    # north: its end (10, 13) is nearest, 3 - 1.25984 = 1.74016" from e/1: engaged
    # (within 2"), not in contact, 3" moved
    assert got[0].end == pytest.approx((10.0, 13.0))
    assert (got[0].achieved, got[0].contact) == (True, False)
    assert got[0].dist == pytest.approx(1.74016, abs=1e-5) and got[0].length == pytest.approx(3.0)
    # short: (10, 12), 4 - 1.25984 = 2.74016" away, not engaged; 2" moved
    assert got[2].end == pytest.approx((10.0, 12.0)) and not got[2].achieved
    assert got[2].dist == pytest.approx(2.74016, abs=1e-5)
    # bent: (11, 12), sqrt(1 + 16) - 1.25984 = 2.86326" away; sqrt(2) + 1 = 2.41421" moved
    assert got[3].end == pytest.approx((11.0, 12.0))
    assert got[3].dist == pytest.approx(2.86326, abs=1e-5)
    assert got[3].length == pytest.approx(2.41421, abs=1e-5)
    assert got[3].path == [(10.0, 10.0), (11.0, 11.0), (11.0, 12.0)]
    # one at a time: the same answers
    for route, r in zip([north, still, short, bent], got):
        alone = best_on_route(ctx, "r/1", route, "e/1")
        assert (alone is None and r is None) or (alone.path == r.path and alone.score == r.score)


def test_possible_findings_are_what_the_full_check_adds():
    # tests/scenarios/validator_illegal.toml: r/2 moved 2" right ends 2.93" from e, not
    # engaged, though e/1's right side is free about 1.1" away (test_geometry_moves_validator)
    state, geo = scenario("validator_illegal")
    spec = pile_in_spec(state, geo)
    ctx = MoveContext(state, geo, spec)
    positions = {"r/2": (24.0, 18.74016)}
    full = check(ctx, positions)
    base = check(ctx, positions, possible=False)
    added = possible_findings(ctx, positions, None, base)
    assert [f.code for f in added] == ["possible"] and added[0].model == "r/2"
    assert [(f.code, f.model, str(f.violation)) for f in [*base, *added]] == \
        [(f.code, f.model, str(f.violation)) for f in full]
    # a move that ends engaged adds none: r/2 to (21.5, 19.5), sqrt(1.5^2 + 0.5^2) -
    # 1.25984 = 0.32130" from e/1 (was 1.10389"): engaged and closer
    near = {"r/2": (21.5, 19.5)}
    assert snapshot(state.with_positions(near)).distance("r/2", "e") == \
        pytest.approx(0.32130, abs=1e-5)
    assert possible_findings(ctx, near, None, check(ctx, near, possible=False)) == []


def test_samples_of_several_paths_are_each_paths_samples():
    # ``reach._samples_of`` measures every path's segments at once: the same arc lengths,
    # points and segments as ``_samples`` path by path, to the last bit.  A 0.12" leg is
    # ceil(0.12 / 0.05) = 3 steps of 0.04" (s = 0.04, 0.08, 0.12); a zero leg is one step
    import numpy as np

    from tabletop.geometry.reach import _samples, _samples_of
    paths = [[(10.0, 10.0), (10.12, 10.0)],
             [(10.0, 10.0), (10.0, 10.0), (11.3, 12.7), (9.1, 13.33)],
             [(3.3, 4.4), (5.55, 1.01)]]
    s, xy, seg, of = _samples_of(paths, 0.05)
    for k, path in enumerate(paths):
        s1, xy1, seg1 = _samples(path, 0.05)
        rows = of == k
        assert s[rows].tobytes() == s1.tobytes() and xy[rows].tobytes() == xy1.tobytes()
        assert np.array_equal(seg[rows], seg1)
    first = of == 0
    assert np.allclose(s[first], [0.0, 0.04, 0.08, 0.12])
