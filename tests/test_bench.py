"""The benchmark's pieces: random layouts are legal, the naive baseline agrees with the
snapshot, and ``tabletop bench`` runs.  No timing is asserted here (speed is measured
only by ``tabletop bench`` / tests/bench/)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tabletop.bench import benchmarks, snapshot_bench
from tabletop.bench.layout import random_battlefield
from tabletop.board import mapfile
from tabletop.cli import main
from tabletop.geometry import snapshot
from tabletop.geometry.naive import footprints, naive_answers

MAPS = Path(__file__).resolve().parent.parent / "maps"


@pytest.mark.parametrize("n, seed", [(37, 0), (150, 1), (300, 2)])
def test_random_layouts_are_legal_and_deterministic(n, seed):
    state = random_battlefield(n, seed)
    assert sum(len(u.models) for u in state.units) == n
    assert all(len(u.models) <= 10 for u in state.units)
    geo = snapshot(state)
    assert geo.overlaps == [] and geo.off_table == [] and geo.coherency == {}
    again = random_battlefield(n, seed)
    assert [(m.id, m.x, m.y, m.facing_deg) for m in again.models()] == \
        [(m.id, m.x, m.y, m.facing_deg) for m in state.models()]


def test_random_layouts_mix_bases_and_engage_neighbours():
    state = random_battlefield(1000, 0)
    texts = {u.base.text for u in state.units}
    assert {"25mm", "32mm", "40mm", "75x42mm oval"} <= texts
    geo = snapshot(state)
    # neighbouring cells hold enemies, some within the 2" engagement range
    assert geo.engaged_unit_pairs
    for a, b in geo.engaged_unit_pairs[:20]:
        assert state.unit(a).player != state.unit(b).player


def _snapshot_answers(state):
    geo = snapshot(state)
    return (geo.base_contacts, geo.engaged_unit_pairs,
            {u: list(b.models) for u, b in geo.coherency.items()})


@pytest.mark.parametrize("n, seed", [(120, 0), (200, 3)])
def test_naive_baseline_agrees_with_the_snapshot_on_random_layouts(n, seed):
    state = random_battlefield(n, seed)
    naive = naive_answers(state, footprints(state))
    assert naive.pairs == n * (n - 1) // 2
    assert (naive.base_contacts, naive.engaged_unit_pairs, naive.incoherent) == \
        _snapshot_answers(state)


@pytest.mark.parametrize("name", ["lesson-pile-in.toml", "lesson-flank-charge.toml",
                                  "lesson-rear-charge.toml", "old-world-72x48.toml"])
def test_naive_baseline_agrees_with_the_snapshot_on_the_shipped_maps(name):
    state = mapfile.load(str(MAPS / name))
    naive = naive_answers(state, footprints(state))
    assert naive.base_contacts        # every one of these maps has a fight in it
    assert (naive.base_contacts, naive.engaged_unit_pairs, naive.incoherent) == \
        _snapshot_answers(state)


def test_naive_finds_a_break_in_coherency():
    # three 32mm models in a row: 1 and 2 touch, 3 is 4" further on (03.03: within 2" of one)
    state = mapfile.from_dict({
        "map": {"name": "c", "ruleset": "fight-phase", "width": 20, "depth": 10},
        "players": [{"id": "a", "active": True}],
        "units": [{"id": "u", "player": "a", "base": "32mm",
                   "models": [[2, 5], [2 + 32 / 25.4, 5], [2 + 2 * 32 / 25.4 + 4, 5]]}]})
    assert naive_answers(state, footprints(state)).incoherent == {"u": ["u/3"]}
    assert _snapshot_answers(state)[2] == {"u": ["u/3"]}


def test_bench_command_prints_times_and_ratio(capsys):
    assert "snapshot" in benchmarks()
    assert main(["bench", "--sizes", "40", "--only", "snapshot"]) == 0
    out = capsys.readouterr().out
    assert "naive" in out and "ratio" in out
    assert "all 780 pairs; answers agree" in out        # 40 x 39 / 2 = 780


def test_bench_json_and_sampled_naive(capsys, monkeypatch):
    monkeypatch.setattr(snapshot_bench, "NAIVE_FULL_MAX_PAIRS", 100)
    monkeypatch.setattr(snapshot_bench, "NAIVE_SAMPLE_PAIRS", 50)
    assert main(["bench", "--sizes", "12,30", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["benchmarks"]
    assert [r["models"] for r in rows if r["benchmark"] == "snapshot"] == [12, 30]
    small, big = rows[0], rows[1]
    # 12 models: 66 pairs, all measured; 30 models: 435 pairs > 100, so 50 are sampled
    assert small["naive_measured_on"] == "all 66 pairs" and small["answers_agree"] is True
    assert big["naive_extrapolated"] is True and big["answers_agree"] is None
    assert big["naive_measured_on"] == "50 sampled pairs of 435, extrapolated"
    assert big["ratio"] > 0


def test_bench_bad_arguments_exit_2(capsys):
    assert main(["bench", "--only", "nope"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no benchmark 'nope'" in err[0] and "snapshot" in err[0]
    assert main(["bench", "--sizes", "ten"]) == 2
    assert "--sizes" in capsys.readouterr().err
