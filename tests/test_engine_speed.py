"""The odds engine's cheaper arithmetic (issue 9 speed targets): chances checked once per
outcome table with int weights over a common denominator, exact walks weighing ints, the
rank-and-flank odds verdict from the score's points, break tests from a base and the
score difference.  Every expected value is worked out by hand beside it."""

from __future__ import annotations

import importlib
import math
from fractions import Fraction

import pytest

from tabletop.bench.odds_bench import rnf_5x4_battlefield
from tabletop.board.state import Battlefield
from tabletop.rules.engine import counts, walk
from tabletop.rules.engine.machine import END, Machine, PhaseState, Row, Transition, goto, wait
from tabletop.rules.engine.pending import Chance, Drawn, _checked
from tabletop.rules.rank_and_flank.breaks import break_base, break_setup, with_difference
from tabletop.rules.rank_and_flank.odds import _to_first_chance
from tabletop.rules.rank_and_flank.score import result_of

H = Fraction(1, 2)
# the module (the package's ``phase`` name is its function of the same name)
rnf_phase = importlib.import_module("tabletop.rules.rank_and_flank.phase")


# ------------------------------------------------------------------ Chance
def test_chance_weights_over_the_least_common_denominator():
    # successes(2, 1/2): 0 -> 1/4, 1 -> 2/4, 2 -> 1/4: den 4, weights 1, 2, 1
    c = Chance("two coins", "r", counts.successes(2, H))
    assert (c.den, c.weights) == (4, (1, 2, 1))
    # 1/2, 1/3, 1/6: lcm(2, 3, 6) = 6; weights 3, 2, 1 (sum 6 = den)
    c = Chance("mixed", "r", (("a", H), ("b", Fraction(1, 3)), ("c", Fraction(1, 6))))
    assert (c.den, c.weights) == (6, (3, 2, 1))


def test_chance_has_outcome_by_value():
    c = Chance("d3", "r", ((1, Fraction(1, 3)), (2, Fraction(1, 3)), (3, Fraction(1, 3))))
    assert c.has_outcome(2) and c.has_outcome(Drawn(3, "faces"))   # a Drawn is its value
    assert not c.has_outcome(4)
    assert not c.has_outcome([1])                                  # unhashable: not an outcome


def test_chance_table_checked_once_and_bad_tables_refused():
    table = counts.successes(3, H)
    assert _checked("a", table) is _checked("b", table)    # the same tuple: one check kept
    with pytest.raises(ValueError, match="sum to 5/6"):   # 1/2 + 1/3 = 5/6
        Chance("short", "r", (("a", H), ("b", Fraction(1, 3))))
    with pytest.raises(ValueError, match="listed twice"):
        Chance("twice", "r", (("a", H), ("a", H)))
    with pytest.raises(ValueError, match="sum to 0"):
        Chance("none", "r", ())


# ------------------------------------------------------------------ exact walks
def _bf() -> Battlefield:
    return rnf_5x4_battlefield()


def _coin_then_d3() -> tuple[Machine, PhaseState]:
    """A coin adds 0 or 1 (1/2 each), then a D3 adds 0, 1 or 2 (1/3 each); memo = total."""
    coin = Chance("coin", "r", ((0, H), (1, H)))
    d3 = Chance("d3", "r", tuple((k, Fraction(1, 3)) for k in (0, 1, 2)))
    rows = [
        Row("coin", "coin", "r", lambda s: wait(s, coin),
            lambda s, v: goto(s, "d3", memo=s.memo + v)),
        Row("d3", "d3", "r", lambda s: wait(s, d3), lambda s, v: goto(s, END, memo=s.memo + v)),
    ]
    m = Machine(rows, "coin")
    return m, m.begin(_bf(), 0)


def test_exact_walk_mixed_denominators():
    m, start = _coin_then_d3()
    got = walk.exact(m, start, outcome=lambda s: s.memo, key=lambda s: (s.cursor, s.memo))
    # total 0: 1/2 * 1/3 = 1/6; 1: 0+1 or 1+0 = 1/6 + 1/6 = 1/3; 2: 0+2 or 1+1 = 1/3;
    # 3: 1+2 = 1/6
    assert got.dist == {0: Fraction(1, 6), 1: Fraction(1, 3), 2: Fraction(1, 3),
                        3: Fraction(1, 6)}
    assert all(type(p) is Fraction for p in got.dist.values())
    # weighed: the start (1), two totals waiting on the D3 (2), four final totals (4) = 7
    assert got.states == 7


def test_exact_walk_long_chain_reduces_and_stays_exact():
    # 100 coins, counting heads: a level's denominator is 2**level, past REDUCE_BITS (256)
    # never (100 bits) -- so use 1/6 coins (denominator 6**level: 6**100 is 259 bits)
    n = 100
    p = Fraction(1, 6)
    coin = Chance("coin", "r", ((1, p), (0, 1 - p)))

    def enter(s: PhaseState) -> Transition:
        k, heads = s.memo
        return goto(s, END) if k == n else wait(s, coin)

    rows = [Row("flip", "flip", "r", enter,
                lambda s, v: goto(s, "flip", memo=(s.memo[0] + 1, s.memo[1] + v)))]
    m = Machine(rows, "flip")
    got = walk.exact(m, m.begin(_bf(), (0, 0)), outcome=lambda s: s.memo[1],
                     key=lambda s: (s.cursor, s.memo))
    # P(k heads) = C(100, k) (1/6)^k (5/6)^(100-k), the binomial by hand
    for k in (0, 1, 17, 50, 100):
        assert got.dist[k] == math.comb(n, k) * p ** k * (1 - p) ** (n - k)
    assert sum(got.dist.values()) == 1


def test_reduced_divides_by_the_common_divisor_past_the_bound():
    big = 2 ** 300
    level = {"a": [None, 3 * big], "b": [None, 6 * big]}
    # den 9 * 2**301: gcd(9 * 2**301, 3 * 2**300, 6 * 2**300) = 3 * 2**300 -> 6, 1, 2
    assert walk._reduced(level, 9 * 2 * big, 1) == 6
    assert (level["a"][1], level["b"][1]) == (1, 2)
    small = {"a": [None, 2]}
    assert walk._reduced(small, 4, 1) == 4 and small["a"][1] == 2   # under the bound: as is


# ------------------------------------------------------------------ rank-and-flank
def test_result_of_totals():
    # red 5, blue 2: red wins by 5 - 2 = 3
    assert result_of({"red": 5, "blue": 2}) == ("red", ["blue"], 3)
    # a tie at the top: no winner
    assert result_of({"red": 4, "blue": 4}) == (None, [], 0)
    # one player alone wins nothing
    assert result_of({"red": 4}) == (None, [], 0)


def test_break_base_then_difference():
    bf = _bf()
    machine, st = rnf_phase.round_machine(bf, ["blue", "red"])
    st = _to_first_chance(machine, st, bf.decisions)
    ctx = st.memo.plan.ctx
    form = ctx.forms["blue"]
    alive = {m.id for m in bf.unit("blue").models}
    base = break_base(ctx.state, "blue", form, alive)
    # Discipline 7; 20 models in ranks of 5: three full ranks behind the front, the bonus
    # capped at 2: target 7 + 2 = 9 before the difference
    assert (base.kind, base.discipline, base.ranks, base.target) == ("test", 7, 2, 9)
    lost = with_difference(base, 3)
    # lost by 3: 9 - 3 = 6
    assert (lost.difference, lost.target) == (3, 6)
    assert lost == break_setup(ctx.state, "blue", form, alive, 3)
    assert base.target == 9                 # the base is not changed by completing it


def test_rnf_odds_verdict_by_hand_and_as_the_itemised_one():
    bf = _bf()
    rnf_phase.forget_geometry()
    machine, st = rnf_phase.round_machine(bf, ["blue", "red"])
    st = _to_first_chance(machine, st, bf.decisions)
    m = st.memo
    assert m.odds
    # red's blows cause 3 wounds on blue (3 blue models removed), blue's none:
    # red 3 (wounds) + 2 (ranks: 20 models, 3 full ranks behind, capped at 2) = 5;
    # blue 0 + 2 (17 left: ranks of 5, 5, 5, 2 -> 2 full behind the front) = 2;
    # red wins by 3; blue tests on Discipline 7 + 2 ranks - 3 = 6
    hand = rnf_phase._set(m, pools=(("blue", 3),), caused=(("red", 3),))
    assert rnf_phase._verdict(hand) == ("red", (("blue", "test", 6, "blue"),), None)
    # every tally of up to 6 wounds each way: the points-only verdict is the itemised one
    for r in range(7):
        for b in range(7):
            t = rnf_phase._set(m, pools=tuple(x for x in (("blue", r), ("red", b)) if x[1]),
                               caused=tuple(x for x in (("blue", b), ("red", r)) if x[1]))
            assert rnf_phase._odds_verdict(t, m.plan) == rnf_phase._verdict_of(t, m.plan)
