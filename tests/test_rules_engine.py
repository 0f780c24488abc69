"""The rules engine core (rules/engine): rows over frozen states, one driver, one odds walker.

The machine here is a test fixture, not a ruleset: a player chooses how many dice to roll
(1 or 2, default 2), the dice are rolled one chance at a time as "a 4+ succeeds", and the
phase ends after the dice.  Worked by hand: with 2 dice, successes 0/1/2 have 1/4, 1/2, 1/4.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

import pytest

from tabletop.board.state import Decision
from tabletop.rules.dice import Dice
from tabletop.rules.engine.counts import at_most, convolve, dice_sum, faces_sum, successes
from tabletop.rules.engine.driver import run, step_to_question
from tabletop.rules.engine.machine import END, Machine, Row, StepMark, goto, wait
from tabletop.rules.engine.pending import Chance, Question
from tabletop.rules.engine.walk import TooManyStates, exact, monte_carlo, odds
from tabletop.rules.events import Event, EventLog


@dataclass(frozen=True, kw_only=True)
class Chosen(Event):
    """The fixture's own event type: how many dice the player chose."""

    type: ClassVar[str] = "chosen"
    n: int


HALF = ((True, Fraction(1, 2)), (False, Fraction(1, 2)))


def _draw(dice):
    return dice.d(6, purpose="4+") >= 4


def _machine():
    def ask(st):
        return wait(st, Question("red", "dice", (1, 2), 2, rule="test 1"))

    def asked(st, n):
        return goto(st, "roll", (Chosen(rule="test 1", n=n),), memo=(n, 0, 0))

    def roll(st):
        n, rolled, hits = st.memo
        if rolled == n:
            return goto(st, END, (StepMark(f"{hits} hits", "test 2", st.battlefield),))
        return wait(st, Chance("4+", "test 2", HALF, draw=_draw))

    def rolled(st, ok):
        n, k, hits = st.memo
        return goto(st, "roll", memo=(n, k + 1, hits + int(ok)))

    return Machine([Row("ask", "Ask", "test 1", ask, asked), Row("roll", "Roll", "test 2", roll, rolled)],
                   "ask")


def _start(m):
    from fightkit import state_from, unit
    return m.begin(state_from(unit("R", "red", [(10, 10)])), None)


def hits(st):
    return st.memo[2]


def test_exact_walk_by_hand_and_merging():
    m = _machine()
    o = exact(m, _start(m), outcome=hits, key=lambda s: (s.cursor, s.pending, s.memo))
    assert o.dist == {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}
    assert sum(o.dist.values()) == 1
    # (T, F) and (F, T) reach the same state: merged, so 3 finals, not 4 histories
    assert sum(1 for _ in o.dist) == 3


def test_exact_bound_is_a_count():
    m = _machine()
    with pytest.raises(TooManyStates):
        exact(m, _start(m), outcome=hits, key=lambda s: (s.cursor, s.pending, s.memo), max_states=3)
    o = odds(m, _start(m), outcome=hits, key=lambda s: s.memo, max_states=3, target_se=0.02,
             min_runs=500)
    assert o.method == "monte carlo" and o.max_se < 0.02
    assert abs(o.dist[1] - 0.5) < 4 * o.max_se


def test_scripted_answer_then_replay():
    m = _machine()
    log = EventLog()
    r = run(m, _start(m), dice=Dice(5), scripted=[Decision("red", "dice", 1)], log=log)
    assert r.state.done and r.state.memo[0] == 1
    assert r.answers == [Decision("red", "dice", 1)]
    assert [e.type for e in log.events] == ["chosen"] and len(log.steps) == 1
    # the same map, seed and answers give the same run
    r2 = run(m, _start(m), dice=Dice(5), scripted=r.answers)
    assert r2.state == r.state


def test_forbidden_scripted_value_is_overridden():
    m = _machine()
    log = EventLog()
    r = run(m, _start(m), dice=Dice(1), scripted=[Decision("red", "dice", 3)], log=log)
    assert log.events[0].type == "decision_overridden" and r.state.memo[0] == 2


def test_window_stops_at_unanswered_question():
    m = _machine()
    st = step_to_question(m, _start(m), dice=Dice(1))
    assert isinstance(st.pending, Question) and st.pending.default == 2
    st, _ = m.answer(st, 2)
    assert isinstance(st.pending, Chance)
    with pytest.raises(ValueError):
        m.answer(st, "six")


def test_counts_by_hand():
    # 2D6 <= 7: 21 of 36 totals (1+2+3+4+5+6)
    assert dict(at_most(dice_sum(2), 7))[True] == Fraction(21, 36)
    # 3 dice at 4+ with re-rolled ones: p = 1/2 + 1/6 * 1/2 = 7/12; all three: (7/12)^3
    assert dict(successes(3, Fraction(7, 12)))[3] == Fraction(343, 1728)
    assert sum(w for _, w in successes(10, Fraction(1, 3))) == 1


def test_chance_rejects_bad_distributions():
    with pytest.raises(ValueError):
        Chance("x", "", ((1, Fraction(1, 2)),))
    with pytest.raises(ValueError):
        Question("red", "x", (1, 2), 3)


def test_monte_carlo_is_seeded():
    m = _machine()
    a = monte_carlo(m, _start(m), outcome=hits, seed=3, min_runs=600, max_runs=600)
    b = monte_carlo(m, _start(m), outcome=hits, seed=3, min_runs=600, max_runs=600)
    assert a.dist == b.dist and a.runs == 600
    c = Chance("4+", "", HALF)
    assert {c.sample(random.Random(k)) for k in range(20)} == {True, False}


def test_one_row_at_a_time_reaches_the_same_state():
    m = _machine()
    st = _start(m)
    st, _ = m.advance(st, max_rows=1)
    assert isinstance(st.pending, Question)
    st, _ = m.answer(st, 1, advance=False)
    assert st.pending is None and st.cursor == "roll"
    st, _ = m.advance(st, max_rows=1)
    assert isinstance(st.pending, Chance)
def test_a_draw_may_hand_its_row_what_the_dice_showed():
    """``Drawn``: equal to its outcome for the machine, its detail read by the row's resume;
    the odds walk answers with the bare outcome (no detail)."""
    from fractions import Fraction

    from tabletop.rules.engine import driver, walk
    from tabletop.rules.engine.machine import END, Machine, Row, goto, wait
    from tabletop.rules.engine.pending import Chance, Drawn, detail_of, outcome_of

    seen = []

    def enter(st):
        return wait(st, Chance("test", "r", ((True, Fraction(1, 2)), (False, Fraction(1, 2))),
                               draw=lambda dice: Drawn(True, [6, 6])))

    def resume(st, answer):
        seen.append((outcome_of(answer), detail_of(answer)))
        return goto(st, END, memo=outcome_of(answer))

    m = Machine([Row("roll", "Roll", "r", enter, resume)], "roll")
    start = m.begin(None, None)
    r = driver.run(m, start, dice=object())
    assert r.state.memo is True and seen == [(True, [6, 6])]
    assert Drawn(3, "x") == 3 and hash(Drawn(3, "x")) == hash(3) and Drawn(3) != 4
    seen.clear()
    o = walk.exact(m, start, outcome=lambda s: s.memo, key=lambda s: (s.cursor, s.memo))
    assert o.dist == {True: Fraction(1, 2), False: Fraction(1, 2)}
    assert sorted(seen) == [(False, None), (True, None)]


def test_faces_sum_counts_in_whole_numbers():
    # 2D6: 6 of the 36 rolls make 7, 1 makes 2, 1 makes 12; a D3 read from a D6 (1,1,2,2,3,3)
    # shows each of 1, 2, 3 on 2 of 6 faces
    two = dict(dice_sum(2))
    assert two[7] == Fraction(6, 36) and two[2] == two[12] == Fraction(1, 36)
    assert faces_sum(1, (1, 1, 2, 2, 3, 3)) == ((1, Fraction(1, 3)), (2, Fraction(1, 3)),
                                                (3, Fraction(1, 3)))
    # the same as adding the dice one by one with Fractions (the old way)
    one = tuple((f, Fraction(1, 6)) for f in range(1, 7))
    assert faces_sum(3, tuple(range(1, 7))) == convolve(convolve(one, one), one)
    # 100D6 (issue 11: 18 s with Fractions die by die): 501 totals, 100 and 600 each one roll
    # of 6^100, weights adding to 1
    big = dict(faces_sum(100, tuple(range(1, 7))))
    assert len(big) == 501 and big[100] == big[600] == Fraction(1, 6 ** 100)
    assert sum(big.values()) == 1
    with pytest.raises(ValueError):
        faces_sum(-1, (1,))


def test_amounts_of_several_models_pool_their_dice():
    # two models of D6+1 attacks each are 2D6+2: 2 + 2 = 4 (1/36) up to 14 (1/36), 9 on 6/36
    from tabletop.rules.fight_phase.amounts import DiceExpr
    from tabletop.rules.fight_phase.attacks import amount_dist, amounts_dist
    d6p1 = DiceExpr(1, 6, 1)
    pooled = dict(amounts_dist((d6p1, d6p1, 3)))       # and a model of 3 attacks: 7 .. 17
    assert pooled[7] == pooled[17] == Fraction(1, 36) and pooled[12] == Fraction(6, 36)
    assert dict(amount_dist(DiceExpr(2, 3))) == {2: Fraction(1, 9), 3: Fraction(2, 9),
                                                 4: Fraction(3, 9), 5: Fraction(2, 9),
                                                 6: Fraction(1, 9)}
