"""How find_return_spot searches (geometry/placement.py): round bases' gaps by arithmetic,
candidates weighed nearest first in batches, and the same spot as a plain search of every
candidate with Shapely distances (the search before issue 9's speed-up, written out here as an
oracle).

32mm bases: radius 0.62992" (32 / 25.4 / 2); contact tolerance 0.02"; coherency 2";
engagement range 1" (fight-phase defaults).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from challengekit import battlefield, model, unit
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.geometry import placement
from tabletop.geometry.footprints import core_and_pad
from tabletop.geometry.placement import RING_ANGLES, Spot, find_return_spot

R32 = 32 / 25.4 / 2


def plain_spot(state, model_, player, locked_with=(), prefer=None):
    """Every candidate weighed with Shapely's distances between cores (points for round
    bases, polygons otherwise), then the engaged legal ones first, nearest ``prefer``, first
    made.  Round models only (the tests below return 32mm models)."""
    rules = state.rules
    tol, coh, eng = rules.tol, rules.coherency_range, rules.engagement_range
    prefer = prefer or model_.at
    owner = {u.id: u.player for u in state.units}
    others = [m for m in state.models() if m.id != model_.id]
    friends = [i for i, m in enumerate(others) if m.unit_id == model_.unit_id]
    enemies = [i for i, m in enumerate(others) if owner[m.unit_id] != player]
    locked = set(locked_with)
    reach = [max(m.base.along, m.base.across) / 2 for m in others]
    r = model_.base.radius
    cands = [tuple(prefer)]

    def ring(m, rad):
        return [(m.x + rad * math.cos(2 * math.pi * k / RING_ANGLES),
                 m.y + rad * math.sin(2 * math.pi * k / RING_ANGLES)) for k in range(RING_ANGLES)]
    if friends:
        for i in friends:
            for g in [tol / 2, coh / 2, coh - tol]:
                cands += ring(others[i], reach[i] + r + g)
    targets = enemies if friends else [i for i in enemies if others[i].unit_id in locked]
    for i in targets:
        for g in [tol / 2, eng / 2, eng - tol]:
            cands += ring(others[i], reach[i] + r + g)
    cores = [core_and_pad(m.base, m.x, m.y, m.facing_deg) for m in others]
    best = None
    for n, (x, y) in enumerate(cands):
        gaps = [shapely.distance(shapely.Point(x, y), c) - r - p for c, p in cores]
        if any(g < -tol for g in gaps):
            continue
        if x - r < -tol or y - r < -tol or x + r > state.table.width + tol or y + r > state.table.depth + tol:
            continue
        coherent = any(gaps[i] <= coh + tol for i in friends)
        contact = [others[i].id for i, g in enumerate(gaps) if others[i].unit_id in locked and g <= tol]
        if friends and not coherent:
            continue
        if not friends and not contact:
            continue
        engaged = any(gaps[i] <= eng + tol for i in enemies)
        rank = (not engaged, float(np.hypot(x - prefer[0], y - prefer[1])), n)
        if best is None or rank < best[0]:
            best = (rank, Spot(x, y, engaged, bool(coherent) or not friends, tuple(sorted(contact))))
    return None if best is None else best[1]


def test_the_search_stops_at_the_first_batch_holding_an_engaged_legal_spot(monkeypatch):
    # red a/1 returns to (10, 10), where it stood: a/2 and a/3 stand 1.3" and 2.6" to its right,
    # blue b/1 and b/2 1.3" above a/1 and a/2 (gap 1.3 - 2 x 0.62992 = 0.04": engaged, 1" range).
    # Candidates: where it stood + 2 friends x 3 rings x 72 + 2 enemies x 3 rings x 72 =
    # 1 + 432 + 432 = 865.  Where it stood is legal (gap 0.04" to a/2, no overlap), coherent and
    # engaged, and nearest (distance 0): the first batch of 256 holds it, so 256 are weighed.
    s = battlefield([unit("a", "red", [model(10.0, 10.0), model(11.3, 10.0), model(12.6, 10.0)]),
                     unit("b", "blue", [model(10.0, 11.3), model(11.3, 11.3)])])
    me = s.model("a/1")
    table = s.without_models(["a/1"])
    weighed = []
    real = placement._candidate_gaps
    monkeypatch.setattr(placement, "_candidate_gaps",
                        lambda m, c, o: weighed.append(len(c)) or real(m, c, o))
    spot = find_return_spot(table, me, "red", ["b"], prefer=(10.0, 10.0))
    assert spot == Spot(10.0, 10.0, True, True, ())
    assert weighed == [256]            # not all 865 candidates


def test_the_search_goes_on_when_the_nearest_spots_are_taken():
    # a/1's old spot (10, 10) is now taken by blue b/3 (a model piled in): the nearest candidates
    # all overlap it, so the search weighs more batches and finds what the plain search finds
    s = battlefield([unit("a", "red", [model(10.0, 10.0), model(11.3, 10.0)]),
                     unit("b", "blue", [model(10.0, 11.3), model(11.3, 11.3), model(10.0, 10.0)])])
    me = s.model("a/1")
    table = s.without_models(["a/1"])
    spot = find_return_spot(table, me, "red", ["b"], prefer=(10.0, 10.0))
    assert spot == plain_spot(table, me, "red", ["b"], prefer=(10.0, 10.0))
    assert spot is not None and spot.engaged
    # at least 2 radii (1.25984") from b/3's centre, less the 0.02" tolerance
    assert math.hypot(spot.x - 10.0, spot.y - 10.0) >= 2 * R32 - 0.02


@settings(max_examples=20, deadline=None)
@given(st.lists(st.tuples(st.floats(6.0, 14.0), st.floats(6.0, 14.0)), min_size=1, max_size=5),
       st.lists(st.tuples(st.floats(6.0, 14.0), st.floats(6.0, 14.0)), min_size=1, max_size=5),
       st.sampled_from(["32mm", "25x50mm", "60x35mm oval"]), st.booleans())
def test_the_same_spot_as_a_plain_search_of_every_candidate(friends, enemies, enemy_base, unit_gone):
    # random tables (overlaps and all) with round friends and round, rectangular or oval enemies:
    # the batched search with arithmetic gaps picks exactly the plain search's spot
    units = [unit("b", "blue", [model(x, y) for x, y in enemies], base=enemy_base)]
    mine = [model(10.0, 10.0)] + ([] if unit_gone else [model(x, y) for x, y in friends])
    units.append(unit("a", "red", mine))
    s = battlefield(units)
    me = s.model("a/1")
    table = s.without_models(["a/1"])
    got = find_return_spot(table, me, "red", ["b"], prefer=(10.0, 10.0))
    want = plain_spot(table, me, "red", ["b"], prefer=(10.0, 10.0))
    if want is None:
        assert got is None
    else:
        assert got is not None
        assert (got.engaged, got.coherent, got.in_contact_with) == (want.engaged, want.coherent,
                                                                     want.in_contact_with)
        assert got.at == pytest.approx(want.at, abs=1e-12)
