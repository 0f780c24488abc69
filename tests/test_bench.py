"""The benchmark's pieces: random layouts are legal, the naive baseline agrees with the
snapshot, and ``tabletop bench`` runs.  No timing is asserted here (speed is measured
only by ``tabletop bench`` / tests/bench/)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import tabletop.bench as bench_pkg
from tabletop.bench import benchmarks, count_bench, odds_bench, snapshot_bench
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


@pytest.mark.parametrize("name", ["lessons/pile-in.toml", "lessons/flank-charge.toml",
                                  "lessons/rear-charge.toml", "old-world-72x48.toml"])
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
    assert "baseline ms" in out and "ratio" in out
    assert "answers agree; derived = fresh" in out


def test_bench_json_runs_the_baseline_in_full(capsys, monkeypatch):
    # every benchmark but odds and startup, which have their own tests below (fixed maps and
    # command lines that take seconds, whatever --sizes says)
    monkeypatch.setattr(bench_pkg, "MODULES",
                        [m for m in bench_pkg.MODULES if m not in ("odds", "startup")])
    monkeypatch.setattr(snapshot_bench, "RUNS", 1)
    # one timed run of each case (--repeat 1: pile-in, window-edit, charge-shade): every
    # benchmark still runs its baseline in full, only fewer times
    assert main(["bench", "--sizes", "12,30", "--repeat", "1", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["benchmarks"]
    assert [r["models"] for r in rows if r["benchmark"] == "snapshot"] == [12, 30]
    small, big = rows[0], rows[1]
    # the baseline is always run over every pair: 12 x 11 / 2 = 66, 30 x 29 / 2 = 435
    assert small["naive_measured_on"] == "all 66 pairs, exact shapes"
    assert big["naive_measured_on"] == "all 435 pairs, exact shapes"
    assert not big["naive_extrapolated"] and big["answers_agree"] is True
    assert big["derived_agree"] is True and big["ratio"] > 0


def test_startup_bench_runs_each_line_beside_both_baselines(capsys, monkeypatch):
    from tabletop.bench import startup_bench
    monkeypatch.setattr(startup_bench, "REPEATS", 1)
    monkeypatch.setattr(startup_bench, "LINES", startup_bench.LINES[:3])
    assert main(["bench", "--only", "startup", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["benchmarks"]
    assert [r["case"] for r in rows] == ["python -c pass", "import every command",
                                         "tabletop --help"]
    # every row is really run (one timed run each) and divided by the same-run baselines
    base = rows[0]["cpu_s"]
    for r in rows:
        assert r["runs"] == 1 and r["cpu_s"] > 0 and r["baseline_s"] == base
        assert r["ratio_python"] == r["cpu_s"] / base
    assert rows[2]["all_imports_s"] == rows[1]["cpu_s"]


def test_bench_bad_arguments_exit_2(capsys):
    assert main(["bench", "--only", "nope"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no benchmark 'nope'" in err[0] and "snapshot" in err[0]
    assert main(["bench", "--sizes", "ten"]) == 2
    assert "--sizes" in capsys.readouterr().err


# ------------------------------------------------------------------ the odds benchmark

def test_odds_bench_is_listed_with_its_options():
    bench = benchmarks()["odds"]
    assert bench.options == ("repeat", "skip_slow")
    assert [c.name for c in odds_bench.CASES] == ["rnf-5x4", "character-lesson", "gambit-lesson",
                                                  "layout-60x44"]
    # issue 9's targets: 100 ms, 1 s, 1 s, 3 s
    assert [c.target_s for c in odds_bench.CASES] == [0.1, 1.0, 1.0, 3.0]
    assert [c.slow for c in odds_bench.CASES] == [False, True, True, True]


def test_odds_bench_5x4_map_is_two_blocks_front_to_front():
    state = odds_bench.rnf_5x4_battlefield()
    geo = snapshot(state)
    assert [len(u.models) for u in state.units] == [20, 20]      # 5 files x 4 ranks each
    assert geo.overlaps == [] and geo.off_table == []
    assert geo.engagements == [["blue", "red"]]
    # front to front, files mirrored (blue's file 1 faces red's file 5): each of the 5 front
    # bases touches the one opposite face to face, and each of the 4 neighbouring pairs of
    # files touches corner to corner both ways: 5 + 2 x 4 = 13 contacts, all red v blue
    assert len(geo.base_contacts) == 13
    assert all(a.split("/")[0] != b.split("/")[0] for a, b in geo.base_contacts)
    assert ("blue/1", "red/5") in geo.base_contacts and ("blue/1", "red/4") in geo.base_contacts


def test_odds_bench_runs_the_smallest_case(monkeypatch):
    """The 5x4 case once (as ``tabletop bench --only odds --skip-slow --repeat 1``), the
    icepool counts at N = 5 only (skipped with a note when icepool is not installed); a
    check of the rows and the table, not a timing."""
    monkeypatch.setattr(count_bench, "SIZES", (5,))
    lines: list[str] = []
    rows = odds_bench.run([], 0, lines.append, repeat=1, skip_slow=True)
    out = "\n".join(lines)
    case = [r for r in rows if r["benchmark"] == "odds"]
    assert [r["engine"] for r in case] == ["sampled 100", "engine"]
    base, r = case
    assert base["ratio"] == 1.0 and base["method"] != "exact" and base["largest_se"] > 0
    assert r["case"] == "rnf-5x4" and r["runs"] == 1
    assert r["models"] == 40 and r["ratio"] == pytest.approx(base["cpu_s"] / r["cpu_s"])
    assert r["method"] == "exact" and r["largest_se"] is None and r["histories"] > 0
    assert r["target_s"] == 0.1 and r["over_target"] == pytest.approx(r["cpu_s"] / 0.1)
    assert "sampled 100 is the baseline" in out and "target" in out
    assert f"exact, {r['histories']:,} histories" in out
    assert "slow cases skipped (--skip-slow): character-lesson, gambit-lesson, layout-60x44" in out
    assert "runs under 5: medians of 1" in out
    counts = [r for r in rows if r["benchmark"] == "odds-counts"]
    if count_bench._icepool() is not None:
        # successes, failed saves, failed saves as one binomial at N = 5, and the 2D6 test
        assert [(c["count"].strip(), c["dice"]) for c in counts] == [
            ("successes (4+, re-roll 1s)", 5), ("failed saves (5+) of the successes", 5),
            ("the same, own as one binomial", 5), ("2D6 <= Ld, Ld 2..12", 2)]
        assert all(c["agree"] for c in counts)
        assert "exactly" in out and "DIFFER" not in out
    else:
        assert counts == []


def test_count_bench_without_icepool_is_one_note(monkeypatch):
    monkeypatch.setattr(count_bench, "_icepool", lambda: None)
    lines: list[str] = []
    assert count_bench.run(lines.append) == []
    assert len(lines) == 1 and lines[0].startswith("odds counts: own vs icepool skipped: "
                                                   "icepool is not installed")


def test_todays_method_reads_monte_carlo_and_its_largest_se():
    # fight-phase, 100 runs: a count of probability 1/2 has SE sqrt(0.25 / 100) = 0.05,
    # over the unit's p_destroyed_se of 0.01
    fp = {"challenge_odds": None, "odds": {"method": "monte carlo", "runs": 100, "units": [
        {"p_destroyed_se": 0.01, "models_removed": {"0": 0.5, "1": 0.5}, "wounds_caused": {"0": 1.0}}]}}
    m = odds_bench.todays_method(fp)
    assert (m.exact, m.runs) == (False, 100) and m.largest_se == pytest.approx(0.05)
    # rank-and-flank: one engagement exact, one Monte Carlo: the largest of its se figures
    rnf = {"challenge_odds": {"combats": []}, "odds": {"engagements": [
        {"method": "exact", "histories": 10},
        {"method": "monte carlo", "runs": 10_000, "se": {"win": {"a": 0.004, "b": 0.005},
                                                         "tie": 0.003}}]}}
    m = odds_bench.todays_method(rnf)
    assert (m.exact, m.runs, m.largest_se) == (False, 10_000, 0.005)
    assert m.text() == ("Monte Carlo, 10,000 runs (challenge table exact; "
                        "1 of 2 engagements exact)")
    exact = odds_bench.todays_method({"challenge_odds": None, "odds": {"engagements": [
        {"method": "exact", "histories": 7}, {"method": "exact", "histories": 5}]}})
    assert exact.text() == "exact, 12 histories"


def test_own_count_distributions_are_the_hand_worked_ones():
    from fractions import Fraction as F
    # one die at 4+ re-rolling 1s: 3/6 + 1/6 x 3/6 = 7/12
    assert count_bench.own_successes(1) == {0: F(5, 12), 1: F(7, 12)}
    # two dice: (5/12)^2 = 25/144, 2 x 5/12 x 7/12 = 70/144, (7/12)^2 = 49/144
    assert count_bench.own_successes(2) == {0: F(25, 144), 1: F(70, 144), 2: F(49, 144)}
    # one die, then a 5+ save failing on 1-4 (2/3): fails with 7/12 x 2/3 = 7/18
    assert count_bench.own_failed_saves(1) == {0: F(11, 18), 1: F(7, 18)}
    assert count_bench.own_failed_pooled(3) == count_bench.own_failed_saves(3)
    # 2D6 <= 7: 21 of 36 totals; <= 2: 1 of 36; <= 12: all
    d = count_bench.own_2d6_pass()
    assert (d[2], d[7], d[12]) == (F(1, 36), F(21, 36), F(1))


def test_bench_repeat_under_one_exits_2(capsys):
    assert main(["bench", "--only", "odds", "--repeat", "0"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--repeat" in err[0]


def test_window_edit_bench_runs_on_a_small_table():
    """``tabletop bench --only window-edit`` drives the window on a small table with one
    repeat: a row per kind of frame, each beside its naive baseline (no timing asserted)."""
    import os
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from tabletop.bench import window_edit_bench
    lines = []
    rows = window_edit_bench.run([40], 0, lines.append, repeat=1)
    assert [r["frame"] for r in rows] == ["select", "first drag", "drag", "drop", "step"]
    for r in rows:
        assert r["benchmark"] == "window-edit" and r["frames"] >= 1
        assert r["median_ms"] > 0 and r["max_ms"] >= r["median_ms"]
        assert r["naive_median_ms"] > 0 and r["target_ms"] == 33.0
        assert isinstance(r["met"], bool)
    # 40 random models; the step rows also hold the pile-in lesson's 8 (5 intercessors, 3 boyz)
    assert [r["models"] for r in rows] == [40, 40, 40, 40, 48]
    # 1 model moved: 1 select, 1 first drag, LATER_DRAGS (3) drags, 1 drop
    assert [r["frames"] for r in rows[:4]] == [1, 1, 3, 1]
    assert len(lines) == 2 + 5 + 1 and "naive" in lines[0]
    assert "window-edit" in benchmarks()
