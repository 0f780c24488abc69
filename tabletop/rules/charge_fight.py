"""The charge preview's fight, sampled one seeded run at a time (the window's way).

``tabletop charge`` weighs the fight that follows a landing at once
(``charge_plan.fight_summary``: exact within its bound, else a batch of runs).
The window must never wait for that, so ``FightSampler`` runs the same fight -
the ruleset's own odds (``find_ruleset(...).odds``) on a table holding only the
charger and its targets - one Monte Carlo run per ``step()``, run k from seed
``seed + k`` (so the same landing gives the same figures on any machine, after
the same number of steps: nothing here reads a clock), and ``summary()`` gives
what the runs so far say, in the shape ``render.charge_plan.draw_fight_chart``
draws, with ``method`` "sampled", ``runs`` and ``se``: the largest standard
error of the probabilities shown, sqrt(p (1 - p) / runs).

fight-phase: per unit, the chance of losing each number of models (as counted
by the phase's own tallies) and of being destroyed; rank-and-flank: the chance
each player wins the round's combat score, of a tie, of each unit breaking
(rank-and-flank-combat.txt, combat result and break test).
"""

from __future__ import annotations

from typing import Any

from tabletop.board.frozen import evolve
from tabletop.board.state import Battlefield
from tabletop.errors import TabletopError
from tabletop.rules.engine.walk import binomial_se

__all__ = ["FightSampler"]


class FightSampler:
    """Seeded runs of the fight after a landing, accumulated one ``step()`` at a time.

    Parameters
    ----------
    landed : Battlefield
        The table after the charge's landing (``charge_plan.landed_state``).
    unit_id, targets : the charging unit and its declared targets (unit ids).
    seed : int
        Run k (from 0) is the ruleset's Monte Carlo run from seed ``seed + k``.
    """

    def __init__(self, landed: Battlefield, unit_id: str, targets: list[str], seed: int = 1):
        from tabletop.rules.registry import find_ruleset
        keep = {unit_id, *targets}
        self.only = evolve(landed, units=tuple(u for u in landed.units if u.id in keep),
                           decisions=())
        self.unit_id = unit_id
        self.seed = seed
        self.rnf = landed.ruleset == "rank-and-flank"
        self.ruleset = find_ruleset(landed.ruleset)
        self.runs = 0
        self.why: str | None = None if self.ruleset.odds is not None else \
            f"{landed.ruleset} has no odds"
        self.lost: dict[str, dict[int, int]] = {}       # unit -> models lost -> runs
        self.destroyed: dict[str, int] = {}
        self.models: dict[str, int] = {u.id: len(u.models) for u in self.only.units}
        self.wins: dict[str, int] = {}
        self.ties = 0
        self.breaks: dict[str, int] = {}

    @property
    def failed(self) -> bool:
        return self.why is not None

    def step(self) -> None:
        """One more seeded run (nothing once the fight cannot be run: ``why`` says why)."""
        if self.why is not None:
            return
        seed = self.seed + self.runs
        assert self.ruleset.odds is not None   # else __init__ set why
        try:
            got = self.ruleset.odds(self.only, runs=1, seed=seed, exact=False)
        except TabletopError as e:
            # one line naming the units by id (the runs hold only the charger and targets)
            from tabletop.rules.charge_plan import why_no_fight
            self.why = why_no_fight(e, [u.id for u in self.only.units])
            return
        if self.rnf:
            engs = [e for e in got.get("engagements", []) if self.unit_id in e["units"]]
            if not engs:
                self.why = "the landing engages nothing"
                return
            eng = engs[0]
            for pl, p in eng.get("win", {}).items():
                self.wins[pl] = self.wins.get(pl, 0) + round(p)
            self.ties += round(eng.get("tie") or 0)
            for u, p in eng.get("breaks", {}).items():
                self.breaks[u] = self.breaks.get(u, 0) + round(p)
        else:
            rows = got.get("units", [])
            if not rows:
                self.why = got.get("why") or "the landing engages nothing"
                return
            for r in rows:
                u = r["unit"]
                self.models[u] = r["models"]
                k = round(r["expected_models_lost"])
                self.lost.setdefault(u, {})
                self.lost[u][k] = self.lost[u].get(k, 0) + 1
                self.destroyed[u] = self.destroyed.get(u, 0) + round(r["p_destroyed"])
        self.runs += 1

    def summary(self) -> dict[str, Any]:
        """What the runs so far say: ``{method: "sampled", runs, se, units: {id: {models,
        models_lost: {k: p}, expected_models_lost, p_destroyed}}, win?, tie?, breaks?}``, or
        ``{"method": "none", "why"}`` when the fight cannot be run; ``se`` is None before 2
        runs (one run estimates no spread)."""
        if self.why is not None:
            return {"method": "none", "why": self.why}
        n = self.runs
        out: dict[str, Any] = {"method": "sampled", "runs": n, "seed": self.seed, "units": {}}
        if n == 0:
            out["se"] = None
            return out
        shown: list[float] = []
        for u, counts in self.lost.items():
            dist = {k: c / n for k, c in sorted(counts.items())}
            shown += list(dist.values())
            out["units"][u] = {"models": self.models[u], "models_lost": dist,
                               "expected_models_lost": sum(k * p for k, p in dist.items()),
                               "p_destroyed": self.destroyed.get(u, 0) / n}
        if self.rnf:
            out["win"] = {pl: c / n for pl, c in self.wins.items()}
            out["tie"] = self.ties / n
            out["breaks"] = {u: c / n for u, c in self.breaks.items()}
            shown += [*out["win"].values(), out["tie"], *out["breaks"].values()]
            for u in self.models:
                out["units"][u] = {"models": self.models[u]}
        out["se"] = (max(binomial_se(p, n) for p in shown) if n >= 2 and shown
                     else None)
        return out
