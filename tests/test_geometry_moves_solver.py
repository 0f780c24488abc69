"""The pile-in and consolidation solver as a whole (fight-phase.txt 12.03, 12.08):
its answer does not depend on where on the table the fight stands, it finds
coherent moves that need a model pointed back at its friends, and it makes no
move that gains nothing real (``solver.MIN_GAIN``).

32mm bases are 1.25984" across (radius 0.62992"), 25mm 0.98425" (0.49213"),
the tolerance is 0.02".
"""

from __future__ import annotations

import dataclasses

import pytest

from tabletop.bench.pile_in_bench import BLUE, RED, pile_in_battlefield
from tabletop.board.state import Table
from tabletop.geometry import snapshot
from tabletop.geometry.moves import PILE_IN_RULE, MoveSpec, solve_move


def moved_by(state, dx: float, dy: float, width: float = 80.0, depth: float = 80.0):
    """``state`` on a ``width`` x ``depth`` table with every model shifted by (dx, dy)."""
    wider = dataclasses.replace(state, table=Table(width, depth))
    return wider.with_positions({m.id: (m.x + dx, m.y + dy) for m in state.models()})


def test_the_same_fight_translated_gives_the_same_moves_translated():
    # the benchmark fight (20 v 20, 32mm, ranks of 5, front ranks 1.5" apart), once
    # 20" and 20" from the table's corner and once a further (10, 7) along: far from
    # every edge both times, so the moves must be the same, shifted by (10, 7)
    fight = pile_in_battlefield(40, 0)
    spec = MoveSpec("pile_in", RED, (BLUE,), 3.0, PILE_IN_RULE)
    plans = []
    for dx, dy in ((20.0, 20.0), (30.0, 27.0)):
        state = moved_by(fight, dx, dy)
        plans.append((dx, dy, solve_move(state, snapshot(state), spec), state))
    (ax, ay, a, sa), (bx, by, b, sb) = plans
    assert a.violations == [] and b.violations == []
    assert sorted(a.positions) == sorted(b.positions)
    for m, (x, y) in a.positions.items():
        assert b.positions[m] == pytest.approx((x + 10.0, y + 7.0), abs=1e-6)
        assert len(b.paths[m]) == len(a.paths[m])
        for p, q in zip(a.paths[m], b.paths[m]):
            assert q == pytest.approx((p[0] + 10.0, p[1] + 7.0), abs=1e-6)
    assert a.order == b.order
    # engaged after the move: ranks 1-3 (15 models).  Rank 4 starts 5.92" from blue's
    # nearest model (centres 0.73" across and 3 x 1.45984 + 2.75984 = 7.13937" apart:
    # sqrt(0.73^2 + 7.13937^2) - 1.25984 = 5.917"): 3" of move leaves it 2.92" > 2" away
    after = snapshot(a.state_after(sa))
    engaged = [m for m in after.unit_models(RED) if after.model_engaged(m)]
    assert len(engaged) == 15
    assert not any(m in engaged for m in (f"{RED}/{k}" for k in range(16, 21)))
