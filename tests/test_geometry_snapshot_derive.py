"""The snapshot's derivations (``Geometry.without``, ``Geometry.moved``) against a fresh
``snapshot``, the cell grid against a brute-force pair search, and the all-pairs
baseline the benchmark times (``naive.exact_answers``).  Hand-worked positions state their
arithmetic; the hypothesis tests compare every answer on random tables.

32mm = 1.259843" (radius 0.629921"); 40mm marker radius 0.787402".
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop.board.mapfile import from_dict
from tabletop.geometry import near_pairs, snapshot
from tabletop.geometry.naive import exact_answers

MM = 1 / 25.4
R32 = 16 * MM


def make(units, objectives=(), width=30, depth=20, rules=None):
    data = {"map": {"name": "t", "ruleset": "fight-phase", "width": width, "depth": depth},
            "players": [{"id": "red", "active": True}, {"id": "blue"}],
            "units": [{"id": uid, "player": p, "base": base, "models": [list(m) for m in ms]}
                      for uid, p, base, ms in units],
            "objectives": list(objectives)}
    if rules:
        data["rules"] = rules
    return from_dict(data)


def answers(g):
    """Every answer the snapshot gives about pairs, coherency and objectives."""
    out = {"contacts": g.all_base_contacts, "enemy": g.base_contacts, "overlaps": g.overlaps,
           "engaged": g.engaged_model_pairs, "units": g.engaged_unit_pairs,
           "groups": g.engagements,
           "coherency": {u: (b.models, b.reasons) for u, b in g.coherency.items()},
           "objectives": g.objective_ranges, "off": g.off_table, "gaps": g._gap}
    for mid in g.ids:
        out[mid] = (g.engaged_models(mid), g.contacts_of(mid, None), g.nearest_enemy(mid))
    for uid in g._unit_members:
        out[uid] = g.enemy_units_within(uid, 6.0)
    return out


def _drop(state, model_id):
    uid = model_id.rsplit("/", 1)[0]
    u = state.unit(uid)
    return state.with_unit(dataclasses.replace(u, models=tuple(m for m in u.models
                                                                if m.id != model_id)))


def _move(state, model_id, x, y, facing=None):
    uid = model_id.rsplit("/", 1)[0]
    u = state.unit(uid)
    return state.with_unit(dataclasses.replace(u, models=tuple(
        m.moved_to(x, y, facing) if m.id == model_id else m for m in u.models)))


# ---------------------------------------------------------------- worked by hand

def line_up():
    # red a: three 32mm in a row, 2" centre to centre (gaps 2 - 1.259843 = 0.740157");
    # blue b/1 at x = 10 + 2 x 0.629921 = 11.259843: touching a/3 (gap 0, base contact);
    # blue b/2 4" right of b/1 (gap 2.740157: outside 2" engagement)
    return make([("a", "red", "32mm", [(6, 5), (8, 5), (10, 5)]),
                 ("b", "blue", "32mm", [(10 + 2 * R32, 5), (14 + 2 * R32, 5)])],
                objectives=[{"id": "o", "at": [10, 8], "marker": "40mm"}])


def test_without_a_casualty_drops_its_pairs_and_keeps_the_rest():
    s = line_up()
    g = snapshot(s)
    assert g.base_contacts == [("a/3", "b/1")]
    # objective at (10, 8), 3" range from the marker's edge; radii 0.629921 + 0.787402 =
    # 1.417323: a/3 3" below its centre, 3 - 1.417323 = 1.582677 (in); a/2 hypot(2, 3) =
    # 3.605551, 2.188228 (in); a/1 hypot(4, 3) = 5, 3.582677 > 3.02 (out)
    assert g.objective_ranges["o"]["red"] == ["a/2", "a/3"]
    gone = _drop(s, "a/3")
    d = g.without(gone)
    # with a/3 gone no red model touches b/1; a/2 to b/1: 3.259843 - 1.259843 = 2.0" gap,
    # within 2" engagement (2.0 <= 2 + 0.02)
    assert d.base_contacts == []
    assert d.engaged_model_pairs == [("a/2", "b/1")]
    assert d.gap("a/2", "b/1") == pytest.approx(2.0, abs=1e-9)
    assert answers(d) == answers(snapshot(gone))


def test_moved_measures_the_moved_model_again():
    s = line_up()
    g = snapshot(s)
    # b/2 moves to touch b/1's right: x = 11.259843 + 1.259843 = 12.519685 (gap 0), now
    # 12.519685 - 10 - 1.259843 = 1.259843" from a/3 (engaged); then b/1 moves 5" up
    s2 = _move(s, "b/2", 10 + 4 * R32, 5)
    d = g.moved(s2, ["b/2"])
    assert d.gap("b/1", "b/2") == pytest.approx(0.0, abs=1e-9)
    assert ("b/1", "b/2") in d.all_base_contacts
    s3 = _move(s2, "b/1", 10 + 2 * R32, 10)
    d3 = d.moved(s3)                      # changed models found by comparing
    # (a/2 - b/1 is 2.0", engaged, as above)
    assert d.engaged_model_pairs == [("a/2", "b/1"), ("a/3", "b/1"), ("a/3", "b/2")]
    assert d.gap("a/3", "b/2") == pytest.approx(2 * R32, abs=1e-9)
    # b/1 from a/3: centres hypot(1.259843, 5) = 5.156290, less 1.259843 = 3.896447 > 2.02
    assert d3.engaged_model_pairs == [("a/3", "b/2")]
    assert d3.base_contacts == []
    assert d3.gap("a/3", "b/1") == pytest.approx(np.hypot(2 * R32, 5) - 2 * R32, abs=1e-9)
    assert answers(d3) == answers(snapshot(s3))


def test_without_refuses_a_table_where_a_model_moved():
    s = line_up()
    with pytest.raises(ValueError, match="b/2 is not where"):
        snapshot(s).without(_move(s, "b/2", 20, 5))


def test_objective_control_by_hand():
    # a 32mm model 3.9" from a 40mm marker's centre: edge to edge 3.9 - 0.629921 - 0.787402
    # = 2.482677 <= 3": in range; another 4.5" away: 3.082677 > 3.02: out
    s = make([("a", "red", "32mm", [(10, 10)]), ("b", "blue", "32mm", [(14.5, 13.9)])],
             objectives=[{"id": "o", "at": [10, 13.9], "marker": "40mm"}])
    g = snapshot(s)
    assert g.objective_ranges == {"o": {"red": ["a/1"], "blue": []}}
    assert exact_answers(s).objective_ranges == g.objective_ranges


def _measured_pairs(monkeypatch):
    """Record every pair the snapshot measures (``Geometry._measure``'s candidates)."""
    from tabletop.geometry.snapshot import Geometry
    seen: list[tuple[int, int]] = []
    real = Geometry._measure

    def spy(self, i, j, g):
        seen.extend(zip(i.tolist(), j.tolist()))
        return real(self, i, j, g)
    monkeypatch.setattr(Geometry, "_measure", spy)
    return seen


def test_a_wound_and_a_move_measure_only_what_changed(monkeypatch):
    s = line_up()
    g = snapshot(s)
    seen = _measured_pairs(monkeypatch)
    # a/1 removed: every kept pair carried over, none measured
    d = g.without(_drop(s, "a/1"))
    assert seen == []
    assert answers(d) == answers(snapshot(_drop(s, "a/1")))
    seen.clear()
    # b/2 moved 2.740157 - 1.5 = 1.240157" left, to x = 10 + 2 x 0.629921 + 1.259843 + 1.5
    # = 14.019685: 1.5" from b/1 (index 3), the one pair measured; a/3 is 4.019685 -
    # 1.259843 = 2.759843" away, beyond the 2.02" search, and the rest further
    s2 = _move(s, "b/2", 10 + 4 * R32 + 1.5, 5)
    seen.clear()
    d2 = g.moved(s2, ["b/2"])
    assert seen == [(3, 4)]
    assert d2.gap("b/1", "b/2") == pytest.approx(1.5, abs=1e-9)
    assert answers(d2) == answers(snapshot(s2))


def test_moved_carries_the_drawing_outlines_of_what_did_not_move():
    s = line_up()
    g = snapshot(s)
    shapes = g.shapes                       # what a drawing reads
    out_a, out_b = g.unit_outline("a"), g.unit_outline("b")
    s2 = _move(s, "b/2", 15 + 2 * R32, 5)
    d = g.moved(s2, ["b/2"], carry_drawing=True)
    # the unmoved bases and unit a's outline are the very same objects; b/2's base is
    # built where it now stands (its centre 1" right of the old one), b's outline afresh
    assert all(d.shapes[k] is shapes[k] for k in range(4))
    assert d.shapes[4] is not shapes[4]
    assert d.shapes[4].centroid.x == pytest.approx(15 + 2 * R32, abs=1e-9)
    assert d.unit_outline("a") is out_a
    assert d.unit_outline("b") is not out_b
    assert d.unit_outline("b").equals(snapshot(s2).unit_outline("b"))
    assert answers(d) == answers(snapshot(s2))
    with pytest.raises(ValueError, match="carry_drawing needs"):
        g.moved(s2, None, carry_drawing=True)


def test_circle_pairs_finds_exactly_the_circle_pairs():
    # circles of radius 0.5: 0 and 1 are 3.5 - 1 = 2.5" apart edge to edge (within 3),
    # 0 and 2 are 4.5 - 1 = 3.5" (not), 3 is far from all
    i, j, g = near_pairs.circle_pairs(np.array([[0.0, 0.0], [3.5, 0.0], [0.0, 4.5], [40.0, 40.0]]),
                                      np.full(4, 0.5), 3.0)
    assert sorted(zip(i.tolist(), j.tolist())) == [(0, 1)]
    assert g.tolist() == [2.5]


def test_circle_pairs_pairs_a_big_base_through_the_sweep():
    # radius 3 is more than GRID_BIG_FACTOR (2) times the smallest, 0.5: model 2 is paired
    # by the sweep along x, not through the grid.  0-2: 6 - 0.5 - 3 = 2.5 (within 3);
    # 1-2: |(20, 0) - (6, 0)| - 0.5 - 3 = 10.5 (not); 0-1: 20 - 1 = 19 (not)
    i, j, g = near_pairs.circle_pairs(np.array([[0.0, 0.0], [20.0, 0.0], [6.0, 0.0]]),
                                      np.array([0.5, 0.5, 3.0]), 3.0)
    assert sorted(zip(i.tolist(), j.tolist(), g.tolist())) == [(0, 2, 2.5)]


# ---------------------------------------------------------------- random tables

BASES = ["25mm", "32mm", "40mm", "60x35mm oval", "25x50mm"]


@st.composite
def tables(draw):
    units = []
    for k in range(draw(st.integers(1, 5))):
        base = draw(st.sampled_from(BASES))
        n = draw(st.integers(1, 5))
        x0, y0 = draw(st.floats(2, 20)), draw(st.floats(2, 14))
        ms = [(x0 + draw(st.floats(-3, 3)), y0 + draw(st.floats(-3, 3)), draw(st.sampled_from([0, 30, 90])))
              for _ in range(n)]
        units.append((f"u{k}", "red" if k % 2 == 0 else "blue", base, ms))
    objectives = [{"id": f"o{k}", "at": [draw(st.floats(1, 29)), draw(st.floats(1, 19))],
                   "marker": "40mm"} for k in range(draw(st.integers(0, 2)))]
    return make(units, objectives)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.data())
def test_without_and_moved_equal_a_fresh_snapshot(state, data):
    g = snapshot(state)
    ids = list(g.ids)
    gone = data.draw(st.lists(st.sampled_from(ids), unique=True, max_size=len(ids) - 1))
    lost = state
    for mid in gone:
        lost = _drop(lost, mid)
    assert answers(g.without(lost)) == answers(snapshot(lost))
    mover = data.draw(st.sampled_from(ids))
    x, y = data.draw(st.floats(1, 29)), data.draw(st.floats(1, 19))
    moved = _move(state, mover, x, y, data.draw(st.sampled_from([None, 45.0])))
    assert answers(g.moved(moved, [mover])) == answers(snapshot(moved))
    assert answers(g.moved(moved)) == answers(snapshot(moved))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_the_all_pairs_baseline_agrees_with_the_snapshot(state):
    g = snapshot(state)
    a = exact_answers(state)
    assert a.base_contacts == g.base_contacts
    assert a.engaged_unit_pairs == g.engaged_unit_pairs
    assert a.incoherent == {u: list(b.models) for u, b in g.coherency.items()}
    assert a.objective_ranges == g.objective_ranges
