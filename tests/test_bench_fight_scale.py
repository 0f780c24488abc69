"""The ``fight-scale`` benchmark's tables (copies side by side) and the derived snapshots
that keep a rank-and-flank phase linear in the table (``rules.kept_geometry``)."""

from __future__ import annotations

import dataclasses
import json

from tabletop.bench import benchmarks
from tabletop.bench import fight_scale_bench as fsb
from tabletop.board.mapfile import load
from tabletop.geometry import snapshot
from tabletop.geometry.snapshot import Geometry
from tabletop.rules.kept_geometry import KeptSnapshots

OLD_WORLD = "maps/old-world-72x48.toml"


def _one():
    return dataclasses.replace(load(str(fsb.ROOT / OLD_WORLD)), decisions=())


def test_tiled_copies_are_side_by_side_and_out_of_reach():
    one = _one()
    three = fsb.tiled(one, 3)
    w = one.table.width
    # 3 tables of 72" and two gaps of 24": 72 * 3 + 24 * 2 = 264"
    assert three.table.width == 3 * w + 2 * fsb.GAP == 264.0
    assert three.table.depth == one.table.depth
    ids = [m.id for m in three.models()]
    assert len(ids) == 3 * len(list(one.models())) and len(set(ids)) == len(ids)
    for u in one.units:
        for k, tag in ((1, ""), (2, "~2"), (3, "~3")):
            copy = three.unit(u.id + tag)
            for a, b in zip(u.models, copy.models):
                # the same model shifted (k - 1) * (72 + 24) = 0, 96, 192 inches right
                assert b.id == u.id + tag + a.id[len(u.id):]
                assert b.x == a.x + (k - 1) * 96.0 and b.y == a.y
                assert b.unit_id == copy.id
    # every copy keeps to its own third: no model of one within 24" of another copy's
    geo = snapshot(three)
    for u in three.units:
        for v in three.units:
            if u.id.split("~")[1:] != v.id.split("~")[1:]:
                assert geo.distance(u.id, v.id) >= fsb.GAP - 1e-9


def test_kept_snapshots_derive_the_next_table_with_the_same_answers(monkeypatch):
    one = _one()
    kept = KeptSnapshots(2)
    first = kept.get(one)
    u = one.units[0]
    moved = dataclasses.replace(one, units=(dataclasses.replace(u, models=tuple(
        m.moved_to(m.x + 0.5, m.y) for m in u.models)), *one.units[1:]))
    built = []
    real = Geometry.__init__

    def init(self, state, *a, **k):
        built.append(state)
        real(self, state, *a, **k)
    monkeypatch.setattr(Geometry, "__init__", init)
    derived = kept.get(moved)
    assert not built                          # derived from ``first``, not built again
    assert derived is not first and kept.get(one) is first
    monkeypatch.undo()
    fresh = snapshot(moved)
    assert derived.ids == fresh.ids
    assert derived.base_contacts == fresh.base_contacts
    assert derived.engaged_unit_pairs == fresh.engaged_unit_pairs
    assert derived.overlaps == fresh.overlaps
    assert derived.coherency.keys() == fresh.coherency.keys()
    for v in one.units:
        assert derived.sides(v.id).enemy_sides == fresh.sides(v.id).enemy_sides


def test_fight_scale_is_listed_and_runs_each_fight_in_its_own_process(monkeypatch, capsys):
    assert "fight-scale" in benchmarks()
    monkeypatch.setattr(fsb, "MAPS", (("old world", OLD_WORLD),))
    monkeypatch.setattr(fsb, "COPIES", (1, 2))
    calls = []
    real = fsb._cold

    def cold(rel, copies, seed):
        calls.append((copies, seed))
        return real(rel, copies, seed)
    monkeypatch.setattr(fsb, "_cold", cold)
    rows = fsb.run([], 5, print, repeat=1)
    out = capsys.readouterr().out
    assert "x separate" in out and "old world" in out
    # one untimed run, then per size: the tiled table once and the separate fights (1, then 2)
    assert calls == [(1, 5), (1, 5), (1, 5), (2, 5), (1, 5), (1, 6)]
    assert [r["copies"] for r in rows] == [1, 2]
    assert rows[1]["models"] == 2 * rows[0]["models"]
    assert all(r["tiled_s"] > 0 and r["separate_s"] > 0 for r in rows)
    json.dumps(rows)
