"""The odds engine's speed work for the 60x44 layout (issue 9 target): what it keeps and shares.

- ``walk.cycles_paused``: the walks pause Python's cycle collector while they run and set
  it back as it was, also when they raise;
- ``factored._harvest``: a finished part's outcomes are weighed once per distribution;
- ``casualties._removal_order``: the removal order is kept by what it reads (the unit's
  models left and each one's nearest enemy distance), so two tables that differ only far
  away share one order, and a table where the nearest enemy moved does not;
- the fight-phase ruleset loads without the gambit challenge's rows.
"""

from __future__ import annotations

import gc
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import pytest
from fightkit import state_from, unit
from test_rules_engine import _machine, _start, hits

from tabletop.rules.engine import factored, walk
from tabletop.rules.fight_phase import casualties
from tabletop.rules.fight_phase.context import geometry

ROOT = Path(__file__).resolve().parents[1]


def _key(s):
    return s.cursor, s.pending, s.memo


# ---------------------------------------------------------------- the cycle collector
def test_exact_walk_pauses_the_cycle_collector_and_sets_it_back():
    m = _machine()
    seen = []

    def outcome(st):
        seen.append(gc.isenabled())
        return hits(st)
    assert gc.isenabled()
    o = walk.exact(m, _start(m), outcome=outcome, key=_key)
    # the fixture's 2 dice at 4+: 0, 1, 2 hits with 1/4, 1/2, 1/4 (test_rules_engine)
    assert o.dist == {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}
    assert seen and not any(seen)          # paused while the walk ran
    assert gc.isenabled()                  # and set back after it


def test_cycle_collector_set_back_when_the_walk_raises():
    m = _machine()
    with pytest.raises(walk.TooManyStates):
        walk.exact(m, _start(m), outcome=hits, key=_key, max_states=1)
    assert gc.isenabled()


def test_cycle_collector_left_off_when_it_was_off(monkeypatch):
    m = _machine()
    gc.disable()
    try:
        walk.monte_carlo(m, _start(m), outcome=hits, min_runs=10, max_runs=10, batch=10)
        assert not gc.isenabled()          # the walk does not turn it on
    finally:
        gc.enable()


def test_cycle_collector_untouched_when_the_setting_is_off(monkeypatch):
    monkeypatch.setattr(walk, "PAUSE_CYCLE_COLLECTION", False)
    m = _machine()
    seen = []

    def outcome(st):
        seen.append(gc.isenabled())
        return hits(st)
    walk.exact(m, _start(m), outcome=outcome, key=_key)
    assert seen and all(seen)


def test_fight_odds_pause_the_collector_from_the_pile_in_on(monkeypatch):
    """The fight phase's odds pause it for the pile-in step before the walk too."""
    import importlib
    fodds = importlib.import_module("tabletop.rules.fight_phase.odds")
    seen = []
    real = fodds._piled_in

    def piled_in(state):
        seen.append(gc.isenabled())
        return real(state)
    monkeypatch.setattr(fodds, "_piled_in", piled_in)
    # one red model in base contact with one blue (32mm bases: centres 32 / 25.4" apart)
    state = state_from(unit("R", "red", [(10.0, 10.0)]) + unit("B", "blue", [(10.0 + 32 / 25.4, 10.0)]))
    out = fodds.odds(state)
    assert out["method"] == "exact"
    assert seen == [False]
    assert gc.isenabled()


# ---------------------------------------------------------------- the harvest
def test_harvest_weighs_each_distribution_once():
    """Two done nodes (probabilities 1/3 and 1/6) that share part 0's distribution {a: 1/2,
    b: 1/2}: ``exact_split`` hands ``_harvest`` the distribution with 1/3 + 1/6 = 1/2, and
    each inner state's outcome is worked out once: P(A) = 1/2 * 1/2 = 1/4, P(B) = 1/4."""
    calls = []

    def outcome(data, part):
        calls.append(data)
        return data.upper()
    d = {"k1": ("a", Fraction(1, 2)), "k2": ("b", Fraction(1, 2))}
    split = SimpleNamespace(parts=1, outcome=outcome)
    got = factored._harvest(split, {(0, id(d)): (d, Fraction(1, 3) + Fraction(1, 6))})
    assert got == {0: {"A": Fraction(1, 4), "B": Fraction(1, 4)}}
    assert calls == ["a", "b"]


# ---------------------------------------------------------------- the removal order
def _line(far_models, enemy_x=11.5):
    """Red unit A: three 32mm models in a line 2" apart (gaps 2 - 32 / 25.4 = 0.74", within the
    2" coherency range); blue B: one model at (``enemy_x``, 10); blue D: far away, at
    ``far_models``."""
    return state_from(unit("A", "red", [(5.0, 10.0), (7.0, 10.0), (9.0, 10.0)])
                      + unit("B", "blue", [(enemy_x, 10.0)])
                      + unit("D", "blue", far_models))


def test_removal_order_shared_by_tables_that_differ_far_away(monkeypatch):
    """Removing A/2 leaves A/1 and A/3 4" apart (gap 4 - 1.26 = 2.74" > 2"): out of
    coherency, so the ends come first, the one farther from its nearest enemy (B) first: A/1
    (gap 11.5 - 5 - 1.26 = 5.24") before A/3 (gap 2.5 - 1.26 = 1.24"; 32mm = 1.26").  A second table that lost D's far model
    (21" and more from every model of A, never the nearest enemy) reads the same: one order
    worked out for both.  A third, where B stands left of A at x = 2.5 (A/1 now 1.24" from it,
    A/3 5.24"), is worked out again and puts A/3 first."""
    monkeypatch.setattr(casualties, "_ORDER", {})
    calls = []
    real = casualties.removal_order

    def counted(geo, unit_id, without=frozenset()):
        calls.append(unit_id)
        return real(geo, unit_id, without)
    monkeypatch.setattr(casualties, "removal_order", counted)
    one = _line([(25.0, 2.0), (27.0, 2.0)])
    two = _line([(25.0, 2.0)])
    assert casualties._removal_order(geometry(one), "A") == ["A/1", "A/3", "A/2"]
    assert casualties._removal_order(geometry(two), "A") == ["A/1", "A/3", "A/2"]
    assert casualties.allocate(two, geometry(two), "A") == "A/1"
    assert calls == ["A"]
    three = _line([(25.0, 2.0)], enemy_x=2.5)
    assert casualties._removal_order(geometry(three), "A") == ["A/3", "A/1", "A/2"]
    assert calls == ["A", "A"]


# ---------------------------------------------------------------- the imports
def test_fight_phase_loads_without_the_gambit_rows():
    code = ("import sys, tabletop.rules.fight_phase; "
            "print('tabletop.rules.challenges.gambit_rows' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=str(ROOT), capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "False"


def test_nearest_enemy_taken_from_the_table_before_the_casualty(monkeypatch):
    """A/1 at (5, 10); blue B/1 at (8, 10) and B/2 at (10, 10); 32mm bases are 32 / 25.4 =
    1.2598" across, so the gaps are 3 - 1.2598 = 1.7402" and 5 - 1.2598 = 3.7402".  B/2
    removed as a casualty: A/1's nearest is still B/1 at 1.7402", taken from the table before
    (the new snapshot is not asked).  B/1 removed instead: its nearest is gone, so the new
    snapshot is asked: B/2 at 3.7402"."""
    from tabletop.geometry import snapshot
    from tabletop.rules.fight_phase.context import less_of
    monkeypatch.setattr(casualties, "_NEAREST", {})
    state = state_from(unit("A", "red", [(5.0, 10.0)])
                       + unit("B", "blue", [(8.0, 10.0), (10.0, 10.0)]))
    geo = geometry(state)
    assert casualties._nearest(geo, "A/1") == ("B/1", pytest.approx(3 - 32 / 25.4, abs=1e-6))

    less_b2, _, _ = casualties.lose_wounds(state, "B/2", 1, by="A")
    child = geometry(less_b2)
    assert less_of(child) == (geo, frozenset({"B/2"}))

    def not_asked(model_id):
        raise AssertionError("the snapshot after the casualty was asked")
    monkeypatch.setattr(child, "nearest_enemy", not_asked)
    assert casualties._nearest(child, "A/1") == ("B/1", pytest.approx(3 - 32 / 25.4, abs=1e-6))

    less_b1, _, _ = casualties.lose_wounds(state, "B/1", 1, by="A")
    other = geometry(less_b1)
    assert casualties._nearest(other, "A/1") == ("B/2", pytest.approx(5 - 32 / 25.4, abs=1e-6))
    assert casualties._nearest(other, "A/1") == snapshot(less_b1).nearest_enemy("A/1")


# ---------------------------------------------------------------- own work replayed
@pytest.mark.slow
def test_layout_own_work_replayed_gives_the_same_odds_with_fewer_states(monkeypatch):
    """The 60x44 layout: the captain's overrun pile-ins read the bladeguard and gretchin of
    the next engagement (within the solver's neighbourhood), which are there or destroyed
    depending on that engagement's dice, so its own work is reached on four tables.  Walked
    on each (``reads_around`` None: the walk before this change, an independent way to the
    same odds) it weighs 2,167 states; replayed where it reads beyond its part, 1,843
    (the 324 states of the seven walks again are not weighed), and every unit's exact odds
    are the same."""
    import dataclasses
    import importlib

    from tabletop.board import mapfile
    fodds = importlib.import_module("tabletop.rules.fight_phase.odds")
    state = mapfile.load(str(ROOT / "maps" / "ca-layout-1-hammer-and-anvil.toml"))
    replayed = fodds.odds(state)
    real = fodds.fight_split
    monkeypatch.setattr(fodds, "fight_split",
                        lambda *a: dataclasses.replace(real(*a), reads_around=None))
    walked = fodds.odds(state)
    assert replayed["method"] == walked["method"] == "exact"
    assert (replayed["states"], walked["states"]) == (1843, 2167)
    assert replayed["units"] == walked["units"]
