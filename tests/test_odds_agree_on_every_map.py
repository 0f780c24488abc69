"""Issue 9: on every shipped map the odds engine agrees with a seeded Monte Carlo of the
real resolver (its dice drawn one by one, every roll logged) within 4 standard errors.

Fight-phase maps: each unit's P(destroyed) (and expected models lost where the odds are
exact), from
``fight_phase.odds`` against the resolver run from the same piled-in table
(``odds._piled_in``: the steps before it roll no dice) with seeded ``Dice``.
Rank-and-flank maps: each engagement's chance that each unit breaks, from the
ruleset's odds against ``fight`` with seeded dice.  The standard error is the
binomial one of the resolver's estimate (with a floor for figures near 0 or 1), and
the odds' own when they are sampled.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

from tabletop.board.mapfile import load
from tabletop.rules.decisions import Decisions
from tabletop.rules.dice import Dice
from tabletop.rules.engine import driver
from tabletop.rules.events import EventLog
from tabletop.rules.registry import find_ruleset

MAPS = sorted((Path(__file__).resolve().parents[1] / "maps").glob("**/*.toml"))
# the layout's first resolver runs from this seed happen to wipe out the nobz far more often
# than the odds say (7 of the first 30); 1,500 runs from other seeds agree (P 0.088, models
# lost 2.12 against 2.086), so it gets more runs, which its solved moves make cheap
RUNS = {"ca-layout-1-hammer-and-anvil": 200, "gambit-challenge": 40,
        # the rank-and-flank maps whose fights cost most (0.1-0.3 s CPU each) are drawn 20
        # times, not 30-40: every P(breaks) still falls within 4 standard errors, and by these
        # margins (|seen - odds| / SE at n = 20, the seeded draws of random.Random(11)):
        # character-challenge spears 0.151 vs 6/20 = 0.30 (SE 0.080): 1.85; swords 0.397 vs
        #   8/20 (SE 0.109): 0.02
        # old-world-72x48 halberdiers 0.133 vs 4/20 (SE 0.076): 0.88; orc-mob 0.287 vs 5/20
        #   (SE 0.101): 0.37; wolf-riders 0.382 vs 7/20 (SE 0.109): 0.29
        # flank-charge spearmen 0.358 vs 5/20 (SE 0.107): 1.01; wolf-riders 0.055 vs 1/20
        #   (SE 0.051): 0.10
        # surrounded militia 0.873 vs 15/20 (SE 0.074): 1.66; orc-mob 0.0073 and wolf-riders
        #   0.0089 vs 1/20 each (SE at the floor, sqrt(0.01 x 0.99 / 20) = 0.022): 1.92, 1.85
        # (SE = sqrt(max(p(1 - p), 0.01 x 0.99) / n), as ``_close`` computes it)
        "character-challenge": 20, "old-world-72x48": 20, "flank-charge": 20, "surrounded": 20}
DEFAULT_RUNS = 40


def _close(p: float, q: float, n: int, own_se: float | None = None) -> bool:
    se = math.sqrt(max(p * (1 - p), 0.01 * 0.99) / n + (own_se or 0.0) ** 2)
    return abs(p - q) < 4 * se


def _fight_phase(state, n):
    import importlib
    fp = importlib.import_module("tabletop.rules.fight_phase.odds")
    from tabletop.rules.fight_phase.sequence import phase
    odds = fp.odds(state)
    if odds["method"] == "none":
        return
    start, _ = fp._piled_in(state)
    machine, _ = phase(state)   # the whole phase: Consolidation and the fights it starts too
    units = [r["unit"] for r in odds["units"]]
    before = {r["unit"]: r["models"] for r in odds["units"]}
    outcome = fp._outcome(units, before)
    rng = random.Random(11)
    seen = [outcome(driver.run(machine, start, dice=Dice(rng.randrange(10 ** 9)),
                               scripted=state.decisions).state) for _ in range(n)]
    for i, row in enumerate(odds["units"]):
        dead = sum(o[i][1] for o in seen) / n
        assert _close(row["p_destroyed"], dead, n, row.get("p_destroyed_se")), (row["unit"], row["p_destroyed"], dead)
        if odds["method"] != "exact":
            continue    # two samples of a lumpy count (a unit wiped out or not): P(destroyed) only
        lost = [o[i][0] for o in seen]
        mean = sum(lost) / n
        sd = math.sqrt(max(sum((x - mean) ** 2 for x in lost) / max(n - 1, 1), 0.25))
        own = row.get("expected_models_lost_se") or 0.0
        assert abs(mean - row["expected_models_lost"]) < 4 * math.sqrt(sd ** 2 / n + own ** 2), \
            (row["unit"], row["expected_models_lost"], mean)


def _rank_and_flank(state, n):
    ruleset = find_ruleset("rank-and-flank")
    odds = ruleset.odds(state)
    rng = random.Random(11)
    broke: dict[str, int] = {}
    for _ in range(n):
        log = EventLog()
        ruleset.fight(state, Dice(rng.randrange(10 ** 9), log), Decisions(state.decisions, log), log)
        for e in log.events:
            if e.type == "break_test" and e.data.get("result") == "breaks":
                broke[e.data["unit"]] = broke.get(e.data["unit"], 0) + 1
    for e in odds["engagements"]:
        for u, p in e["breaks"].items():
            own = e.get("se", {}).get("breaks", {}).get(u) if e["method"] != "exact" else None
            assert _close(p, broke.get(u, 0) / n, n, own), (u, p, broke.get(u, 0) / n)


@pytest.mark.parametrize("path", MAPS, ids=[p.stem for p in MAPS])
def test_odds_agree_with_the_resolver(path):
    state = load(str(path))
    n = RUNS.get(path.stem, DEFAULT_RUNS)
    if state.ruleset == "fight-phase":
        _fight_phase(state, n)
    else:
        _rank_and_flank(state, n)
