"""The legal region of one model's pile-in or consolidation (geometry/legal_region.py):
hand-worked cases and agreement with the validator at sampled points.
fight-phase.txt 12.03 / 12.08; 11th preset unless said (engagement range 2", tolerance
0.02"); 32mm bases are 1.25984" across (radius 0.62992")."""

from __future__ import annotations

import dataclasses
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from moves_support import scenario
from shapely.geometry import Point

from tabletop.board.config import make_config
from tabletop.board.mapfile import from_dict
from tabletop.errors import UnknownIdError
from tabletop.geometry import snapshot
from tabletop.geometry.legal_region import legal_region
from tabletop.geometry.movespec import CONSOLIDATE_RULE, PILE_IN_RULE, MoveContext, MoveSpec
from tabletop.geometry.validator import check

D32 = 32 / 25.4           # 1.25984"
# the region may fall short of the exact set by slack + polygon error (module docstring)
MARGIN = 0.03


def duel(enemy_x: float, edition: str = "11th"):
    """r/1 (32mm, charged) at (10, 10), e/1 (32mm) at (enemy_x, 10), on a 30 x 20 table."""
    state = from_dict({
        "map": {"name": "duel", "ruleset": "fight-phase", "width": 30.0, "depth": 20.0},
        "rules": {"edition": edition},
        "players": [{"id": "red", "active": True}, {"id": "blue"}],
        "units": [{"id": "r", "player": "red", "base": "32mm", "charged": True, "models": [[10, 10]]},
                  {"id": "e", "player": "blue", "base": "32mm", "models": [[enemy_x, 10]]}],
    })
    return state, snapshot(state)


PILE = MoveSpec("pile_in", "r", ("e",), 3.0, PILE_IN_RULE)


def inside(geom, p) -> bool:
    return geom.covers(Point(p))


def lens_area(r1: float, r2: float, d: float) -> float:
    """Area shared by two discs of radii r1, r2 whose centres are d apart."""
    a1 = math.acos((d * d + r1 * r1 - r2 * r2) / (2 * d * r1))
    a2 = math.acos((d * d + r2 * r2 - r1 * r1) / (2 * d * r2))
    return r1 * r1 * (a1 - math.sin(2 * a1) / 2) + r2 * r2 * (a2 - math.sin(2 * a2) / 2)


def test_model_five_inches_from_its_target():
    # centres 5" apart: gap 5 - 1.25984 = 3.74016".  Reach 3" -> the disc of radius 3 about
    # (10, 10); e/1's grown base (radius 1.25984 about (15, 10)) begins at x = 13.74, out of
    # reach.  Closer: |p - e| - 1.25984 < 3.74016 - 0.02 -> |p - e| < 4.98, so x > 10.02 on
    # the axis.  Engaged: |p - e| - 1.25984 <= 2 + 0.02 -> |p - e| <= 3.27984 (x >= 11.72016).
    state, geo = duel(15.0)
    region = legal_region(state, "r/1", PILE, geo)
    assert not region.fixed and region.target == "e"
    x0, y0, x1, y1 = region.reachable.bounds
    assert x0 == pytest.approx(10.02, abs=0.005)
    assert x1 == pytest.approx(13.0, abs=0.005)          # 10 + 3
    assert region.engaged.bounds[0] == pytest.approx(11.72016, abs=0.005)
    # the engaged part is the lens of disc(start, 3) and disc(e, 3.27984), centres 5 apart
    assert region.engaged.area == pytest.approx(lens_area(3.0, 3.27984, 5.0), rel=0.01)
    assert region.legal.equals(region.engaged)
    assert inside(region.engaged, (12.0, 10.0))          # |p - e| = 3 <= 3.27984
    assert inside(region.reachable, (11.0, 10.0))        # |p - e| = 4 < 4.98
    assert not inside(region.engaged, (11.0, 10.0))      # 4 > 3.27984
    assert not inside(region.reachable, (10.0, 10.0))    # where it stands: not closer
    assert not inside(region.reachable, (12.0, 12.5))    # sqrt(4 + 6.25) = 3.2 > 3


def test_the_targets_base_is_cut_out():
    # centres 4" apart: gap 2.74016".  e/1's grown base |p - e| < 1.25984 is within reach, so
    # the region stops short of it: on the axis at x = 14 - 1.25984 = 12.74; the reach circle
    # meets that base's circle where (x - 10)^2 + y'^2 = 9 and (x - 14)^2 + y'^2 = 1.5872,
    # x - 10 = (16 + 9 - 1.5872) / 8 = 2.92660, the right-most point of the region.
    state, geo = duel(14.0)
    region = legal_region(state, "r/1", PILE, geo)
    assert region.reachable.bounds[2] == pytest.approx(12.9266, abs=0.01)
    assert inside(region.engaged, (12.7, 10.0))          # |p - e| = 1.3: a 0.04" gap
    assert not inside(region.reachable, (12.9, 10.0))    # |p - e| = 1.1 < 1.26: overlaps e/1
    assert inside(region.engaged, (10.8, 10.0))          # |p - e| = 3.2 <= 3.27984
    assert inside(region.reachable, (10.6, 10.0))        # 3.4: closer (< 3.98), not engaged
    assert not inside(region.engaged, (10.6, 10.0))
    assert not inside(region.reachable, (10.01, 10.0))   # 3.99 > 3.98: not closer


def test_tenth_edition_engages_at_one_inch():
    # 10th preset: engagement range 1" -> engaged when |p - e| <= 1.25984 + 1.02 = 2.27984
    state, geo = duel(14.0, "10th")
    region = legal_region(state, "r/1", PILE, geo)
    assert region.engaged.bounds[0] == pytest.approx(14 - 2.27984, abs=0.005)
    assert inside(region.engaged, (11.8, 10.0))          # 2.2 <= 2.27984
    assert not inside(region.engaged, (11.7, 10.0))      # 2.3
    assert inside(region.reachable, (11.7, 10.0))


def test_model_in_base_contact_stays_where_it_is():
    # 12.03 WHILE MOVING: a model in base contact with an enemy model cannot be moved.
    # e/1 at 10 + 1.25984: the bases touch.  Its region is its own spot, engaged.
    state, geo = duel(10 + D32)
    region = legal_region(state, "r/1", PILE, geo)
    assert region.fixed
    assert region.reachable.equals(Point(10, 10)) and region.engaged.equals(Point(10, 10))
    assert region.contains((10.0, 10.0)) and not region.contains((10.1, 10.0))
    assert region.path_to((10.1, 10.0)) is None


def test_path_goes_round_the_wall():
    # tests/scenarios/pile_in_terrain.toml: r/1 (20, 16.5) below the block x 19..21,
    # y 17.5..18.5; e/1 at (20, 20).  Straight up is blocked.  Round the corner C = (21, 17.5)
    # the centre keeps 0.63" (0.62 with the slack) off it: tangent from the start
    # sqrt(1.4142^2 - 0.62^2) = 1.2711, the arc from 289 to 360 degrees (the tangent leaves
    # at 225 + acos(0.62 / 1.4142) = 225 + 64.0) is 1.239 rad x 0.62 = 0.768, then straight up.
    # To (21.62, 18.2): 1.2711 + 0.768 + 0.7 = 2.739" <= 3; there it is
    # sqrt(1.62^2 + 1.8^2) - 1.25984 = 1.162" from e/1: engaged.  To (21.62, 18.5) the same
    # way is 3.039" > 3: out of reach, although it is only 2.5" away as the crow flies.
    state, geo = scenario("pile_in_terrain")
    region = legal_region(state, "r/1", PILE, geo)
    assert not inside(region.reachable, (20.0, 18.0))    # on the block
    assert inside(region.engaged, (21.62, 18.2))
    path = region.path_to((21.62, 18.2))
    assert sum(math.dist(a, b) for a, b in zip(path, path[1:])) == pytest.approx(2.739, abs=0.01)
    assert not inside(region.reachable, (21.62, 18.5))
    assert region.path_to((21.62, 18.5)) is None
    assert not inside(region.reachable, (20.0, 19.0))    # behind the block: > 3" round it


def test_unknown_model_is_refused():
    state, geo = duel(15.0)
    with pytest.raises(UnknownIdError):
        legal_region(state, "e/1", PILE, geo)


# ---------------------------------------------------------------- agreement
PER_UNIT = ("unit_", "coherency", "spec")


def model_codes(ctx, mid, p, path, possible=True):
    found = check(ctx, {mid: p}, {mid: path} if path else None, possible=possible)
    return {f.code for f in found if not f.code.startswith(PER_UNIT)}


def mixed(edition="11th"):
    state, _ = scenario("legal_region_mixed")
    if edition != "11th":
        state = dataclasses.replace(state, rules=make_config("fight-phase", {"edition": edition}))
    return state, snapshot(state)


CASES = {
    "pile-in 11th": (lambda: mixed(), MoveSpec("pile_in", "r", ("e", "o"), 3.0, PILE_IN_RULE)),
    "pile-in 10th": (lambda: mixed("10th"), MoveSpec("pile_in", "r", ("e", "o"), 3.0, PILE_IN_RULE)),
    "engaging": (lambda: mixed(), MoveSpec("engaging", "r", ("o",), 3.0, CONSOLIDATE_RULE)),
    "objective": (lambda: scenario("consolidate_objective"),
                  MoveSpec("objective", "r", ("A",), 3.0, CONSOLIDATE_RULE)),
}
_regions: dict = {}


def region_for(case: str, mid: str):
    if (case, mid) not in _regions:
        make, spec = CASES[case]
        state, geo = make()
        _regions[case, mid] = (legal_region(state, mid, spec, geo), MoveContext(state, geo, spec))
    return _regions[case, mid]


@settings(max_examples=150)
@given(case=st.sampled_from(sorted(CASES)), k=st.integers(1, 3),
       dx=st.floats(-3.4, 3.4), dy=st.floats(-3.4, 3.4))
def test_region_agrees_with_the_validator(case, k, dx, dy):
    """Inside the region (by MARGIN): with the region's path the validator names no clause
    of the model's own, bar "engaged if possible" outside the engaged part; outside it (by
    MARGIN): the straight move breaks one of them.  Unit clauses (coherency, the unit
    engaged) depend on the rest of the unit and are left to the validator."""
    _, spec = CASES[case]
    mid = f"r/{min(k, 2) if case == 'objective' else k}"
    region, ctx = region_for(case, mid)
    p = (region.start[0] + dx, region.start[1] + dy)
    if region.reachable.buffer(-MARGIN).covers(Point(p)):
        codes = model_codes(ctx, mid, p, region.path_to(p))
        allowed = set() if region.engaged.buffer(-MARGIN).covers(Point(p)) else {"possible"}
        assert codes <= allowed, (p, codes)
    elif not region.reachable.buffer(MARGIN).covers(Point(p)):
        assert model_codes(ctx, mid, p, None, possible=False), p
