"""Odds of an engagement from the same rules code (DESIGN.md "Dice").

For each engagement: the chance each side wins the combat score, of a tie,
and that the loser breaks (fails a break test: it flees or is destroyed).

Exact when it fits: ``resolve_round`` runs with ``PoolDice``, which branches
on how many of a group's ``n`` attacks wound (binomial, with the per-attack
chance worked out by enumerating ``rolls.roll_to_hit``/``roll_saves`` with
one die) and on every face of the break-test dice, and sums the exact
probability (a ``Fraction``) of every history.  When an engagement has more
than ``max_paths`` histories it falls back to a Monte Carlo estimate over
``runs`` seeded runs (``tabletop.rules.dice.monte_carlo``) and says so, with
the standard error of each figure.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache
from typing import Any

from tabletop.board.state import Battlefield
from tabletop.geometry import snapshot
from tabletop.rules.decisions import Decisions
from tabletop.rules.dice import Dice, monte_carlo
from tabletop.rules.rank_and_flank.round import plan_round, resolve_round, roll_groups

MAX_PATHS = 100_000
RUNS = 10_000


@lru_cache(maxsize=4096)
def _binomial(n: int, p: Fraction) -> tuple[tuple[int, Fraction], ...]:
    q = 1 - p
    out = []
    for k in range(n + 1):
        w = math.comb(n, k) * p ** k * q ** (n - k)
        if w:
            out.append((k, w))
    return tuple(out)


class _TooMany(Exception):
    pass


class PoolDice(Dice):
    """Dice that follow a prefix of branch choices (exact enumeration).

    ``pool(n, p)`` returns how many of ``n`` independent trials succeed,
    branching over every count with its binomial weight; ordinary faces
    branch over 1..sides with equal weight.  Nothing is logged.
    """

    def __init__(self, prefix: list[int]):
        super().__init__(None, None)
        self.prefix = prefix
        self.pos = 0
        self.weights: list[tuple[Fraction, ...]] = []

    def _choose(self, weights: tuple[Fraction, ...]) -> int:
        if self.pos < len(self.prefix):
            i = self.prefix[self.pos]
        else:
            i = 0
            self.prefix.append(0)
        self.weights.append(weights)
        self.pos += 1
        return i

    def _face(self, sides: int) -> int:
        return self._choose(tuple([Fraction(1, sides)] * sides)) + 1

    def pool(self, n: int, p: Fraction) -> int:
        outcomes = _binomial(n, Fraction(p))
        i = self._choose(tuple(w for _, w in outcomes))
        return outcomes[i][0]


def enumerate_pools(fn: Callable[[Dice], Any], max_paths: int = MAX_PATHS) -> tuple[dict[Any, Fraction], int]:
    """Exact distribution of ``fn(PoolDice)`` and the number of histories.

    Raises
    ------
    ValueError
        When there are more than ``max_paths`` histories.
    """
    out: dict[Any, Fraction] = {}
    prefix: list[int] = []
    runs = 0
    while True:
        d = PoolDice(list(prefix))
        value = fn(d)
        runs += 1
        if runs > max_paths:
            raise ValueError(f"more than {max_paths} histories")
        p = Fraction(1)
        for choice, ws in zip(d.prefix[:d.pos], d.weights):
            p *= ws[choice]
        out[value] = out.get(value, Fraction(0)) + p
        used = d.prefix[:d.pos]
        k = len(used) - 1
        while k >= 0 and used[k] == len(d.weights[k]) - 1:
            k -= 1
        if k < 0:
            return out, runs
        prefix = used[:k] + [used[k] + 1]


def histories_estimate(ctx) -> int:
    """A rough count of exact histories: one branch per possible count of
    wounding attacks in each roll group, times one break test (36 faces)."""
    n = 36
    for members in roll_groups(ctx).values():
        n *= sum(a.dice for a in members) + 1
    return n


def engagement_odds(state: Battlefield, units: list[str], *, max_paths: int = MAX_PATHS,
                    runs: int = RUNS, seed: int = 1, exact: bool = True) -> dict[str, Any]:
    """Odds of one engagement's round (see the module docstring).

    Returns
    -------
    dict
        ``units``, ``players``, ``method`` ("exact" or "monte carlo"),
        ``histories`` or ``runs``, ``win`` {player: p}, ``tie`` p,
        ``loser_breaks`` {player: p that it loses and one of its units
        breaks}, ``breaks`` {unit: p}, and for Monte Carlo ``se`` with the
        standard error of each of those figures.
    """
    geo = snapshot(state)
    ctx = plan_round(state, geo, units, Decisions(state.decisions))
    players = ctx.players()

    def run(d: Dice):
        out = resolve_round(ctx, d)
        broken = tuple(sorted(b.unit for b in out.breaks if b.kind == "test" and not b.passed))
        return out.score.winner, broken

    dist: dict[Any, Any]
    result: dict[str, Any] = {"units": list(units), "players": players}
    bound = histories_estimate(ctx)
    try:
        if not exact:
            raise ValueError("exact odds not asked for")
        if bound > max_paths:
            raise ValueError(f"about {bound} histories, more than {max_paths} to enumerate")
        dist, n = enumerate_pools(run, max_paths)
        result.update(method="exact", histories=n)
        probs = {k: v for k, v in dist.items()}
        total_runs = None
    except ValueError as exc:
        mc = monte_carlo(run, runs=runs, seed=seed)
        probs = {k: Fraction(v[0]).limit_denominator(runs) for k, v in mc.items()}
        result.update(method="monte carlo", runs=runs, seed=seed, why=str(exc))
        total_runs = runs

    def p_of(test) -> Fraction:
        return sum((p for k, p in probs.items() if test(k)), Fraction(0))

    figures = {
        "win": {pl: p_of(lambda k, pl=pl: k[0] == pl) for pl in players},
        "tie": p_of(lambda k: k[0] is None),
        "loser_breaks": {pl: p_of(lambda k, pl=pl: k[0] is not None and k[0] != pl and any(
            state.unit(u).player == pl for u in k[1])) for pl in players},
        "breaks": {u: p_of(lambda k, u=u: u in k[1]) for u in units},
    }

    def as_float(v):
        return {k: float(x) for k, x in v.items()} if isinstance(v, dict) else float(v)

    for key, v in figures.items():
        result[key] = as_float(v)
    if total_runs:
        def se(p: float) -> float:
            return math.sqrt(p * (1 - p) / total_runs)
        result["se"] = {key: ({k: se(x) for k, x in result[key].items()}
                              if isinstance(result[key], dict) else se(result[key]))
                        for key in figures}
    else:
        result["exact"] = {key: ({k: str(x) for k, x in v.items()} if isinstance(v, dict) else str(v))
                           for key, v in figures.items()}
    return result


def odds(state: Battlefield, **opts: Any) -> dict[str, Any]:
    """Odds of every engagement on the map: ``{"engagements": [engagement_odds(...), ...], "text": str}``.

    Options: ``max_paths``, ``runs``, ``seed``, ``exact`` (see ``engagement_odds``).
    """
    geo = snapshot(state)
    out = [engagement_odds(state, g, **opts) for g in geo.engagements
           if len({state.unit(u).player for u in g}) > 1]
    return {"engagements": out, "text": format_odds(out)}


def _pct(p: float, se: float | None = None) -> str:
    return f"{100 * p:5.1f}%" + (f" +/- {100 * se:.1f}" if se is not None else "")


def format_odds(engagements: list[dict[str, Any]]) -> str:
    """The odds as lines a player reads."""
    if not engagements:
        return "No engagements: no unit is in base contact with an enemy."
    lines = []
    for k, e in enumerate(engagements, 1):
        se = e.get("se")
        how = (f"exact, {e['histories']} histories" if e["method"] == "exact"
               else f"Monte Carlo estimate, {e['runs']} runs (seed {e['seed']}), +/- one standard error")
        lines.append(f"Engagement {k}: {' v '.join(e['units'])} ({how})")
        for pl in e["players"]:
            lines.append(f"  {pl} wins the combat score: {_pct(e['win'][pl], se and se['win'][pl])}"
                         f"; {pl} loses and breaks: "
                         f"{_pct(e['loser_breaks'][pl], se and se['loser_breaks'][pl])}")
        lines.append(f"  tie (nobody tests): {_pct(e['tie'], se and se['tie'])}")
        for u, p in e["breaks"].items():
            lines.append(f"  {u} breaks: {_pct(p, se and se['breaks'][u])}")
    return "\n".join(lines)
