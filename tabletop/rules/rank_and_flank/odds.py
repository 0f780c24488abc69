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

The round is the fight's own, from the same table of rows
(``round.round_steps``): ``phase.open_round`` runs the ``OPEN`` rows first
(with ``[rules] challenges = "character"``: a challenge is issued, accepted
or refused, character-challenge.txt ¶1-¶5, its questions answered by the
map's ``[[decisions]]`` then the default policy, exactly as ``tabletop
fight`` answers them), then ``plan_round`` (the ``PLAN`` rows: who attacks;
the duellists attack only each other, a disgraced character not at all) and
``resolve_round`` (the ``BLOWS`` rows: the roll groups, then the duellists'
blows and their capped overkill in the combat score, ¶6).  A challenge's
blows branch on the distribution of the wounds each duellist inflicts
(``chance``); every ``BLOWS`` row says how many outcomes its chances add
(``RoundStep.branches``) so the exact-or-sampled choice still counts
histories.  With a challenge the result also holds ``challenge`` (who
fights, or who retired in disgrace) and, when two characters fight,
``challenge_slain`` {model: p} and ``challenge_overkill`` {player: p that
overkill adds to its score}.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache
from typing import Any

from dataclasses import replace

from tabletop.board.state import Battlefield
from tabletop.geometry import snapshot
from tabletop.rules.decisions import Decisions
from tabletop.rules.dice import Dice, monte_carlo
from tabletop.rules.events import EventLog
from tabletop.rules.rank_and_flank.phase import open_round
from tabletop.rules.rank_and_flank.round import RoundContext, plan_round, resolve_round, round_steps
from tabletop.rules.rank_and_flank.steps import BLOWS, in_stage

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

    def chance(self, dist: dict[Any, Fraction]) -> Any:
        """One value of an exact distribution ``{value: probability}`` (probabilities summing
        to 1), branching over every value with its weight; values of probability 0 are skipped."""
        outcomes = tuple((v, Fraction(w)) for v, w in sorted(dist.items()) if w)
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


def histories_estimate(ctx: RoundContext) -> int:
    """A rough count of exact histories of the planned round ``ctx``: the product of the
    branches of its ``BLOWS`` rows (``RoundStep.branches``: one per possible count of
    wounding attacks in each roll group; a challenge's blows), times one break test (36
    faces)."""
    n = 36
    for row in in_stage(ctx.steps, BLOWS):
        if row.branches is not None:
            n *= max(1, row.branches(ctx))
    return n


class _NoChance(Dice):
    """Dice for the ``OPEN`` rows run before the round is planned: the odds plan that round once, so
    a row that rolled there could not be branched on; it is an error, not a silent fixed roll."""

    def _face(self, sides: int) -> int:
        raise RuntimeError("a round step rolled dice before the round was planned: the odds cannot "
                           "branch there (rank_and_flank.odds)")


def _challenge_facts(log: EventLog) -> dict[str, Any] | None:
    """Who fights the round's character challenge, read from the events the OPEN rows emitted
    (``challenge_issued``/``_accepted``/``_refused``/``_continues``, ``cannot_refuse``); None
    when no challenge was issued or goes on."""
    ev: dict[str, dict] = {}
    for e in log.events:
        ev.setdefault(e.type, e.data)
    if "challenge_continues" in ev:
        a, b = ev["challenge_continues"]["models"]
        return {"challenger": a, "challenged": b, "issued_by": None, "disgraced": None,
                "continuing": True, "forced": False}
    if "challenge_issued" not in ev:
        return None
    acc, ref = ev.get("challenge_accepted"), ev.get("challenge_refused")
    return {"challenger": ev["challenge_issued"]["challenger"],
            "challenged": acc["challenged"] if acc else None,
            "issued_by": ev["challenge_issued"]["player"],
            "disgraced": ref["disgraced"] if ref else None,
            "continuing": False, "forced": bool(acc and acc.get("forced"))}


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
    log = EventLog()                       # the OPEN rows' events; read for ``challenge``, then dropped
    decisions = Decisions(state.decisions, log)
    steps = round_steps(state.rules)
    start, geo, live = open_round(state, list(units), _NoChance(), decisions, log, steps)
    ctx = plan_round(start, geo, live, decisions, steps=steps)
    players = ctx.players()
    pair = ctx.extra.get("challenge")
    base_extra = list(ctx.score_extra)

    def run(d: Dice):
        # a fresh context per history: the BLOWS rows roll with the history's dice and append
        # to ``score_extra``; ``extra`` (roll-group caches) is shared
        c = replace(ctx, dice=d, score_extra=list(base_extra))
        c.extra.pop("challenge_result", None)
        out = resolve_round(c, d)
        broken = tuple(sorted(b.unit for b in out.breaks if b.kind == "test" and not b.passed))
        res = c.extra.get("challenge_result")
        if res is None:
            return out.score.winner, broken
        return (out.score.winner, broken, tuple(sorted(res.removed)),
                tuple(sorted((p, n) for p, n in res.overkill.items() if n)))

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
    facts = _challenge_facts(log)
    if facts is not None:
        result["challenge"] = facts
    if pair:
        owner = {m: start.owner(m) for m in pair}
        figures["challenge_slain"] = {m: p_of(lambda k, m=m: len(k) > 2 and m in k[2]) for m in pair}
        figures["challenge_overkill"] = {owner[m]: p_of(lambda k, pl=owner[m]: len(k) > 2 and any(
            q == pl for q, _ in k[3])) for m in pair}

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
        lines += _challenge_lines(e)
    return "\n".join(lines)


def _challenge_lines(e: dict[str, Any]) -> list[str]:
    """The round's challenge, when there is one: who fights (or who retired in disgrace), each
    duellist's chance to be slain and each side's chance that overkill adds to its score."""
    ch = e.get("challenge")
    if not ch:
        return []
    se = e.get("se") or {}
    if ch["disgraced"]:
        return [f"  challenge: {ch['challenger']} ({ch['issued_by']}) is refused: {ch['disgraced']} "
                "retires in disgrace (no attacks this round, no Discipline for the break test)"]
    how = "goes on from last round" if ch["continuing"] else f"issued by {ch['issued_by']}"
    lines = [f"  challenge: {ch['challenger']} v {ch['challenged']} ({how})"]
    for m, p in e.get("challenge_slain", {}).items():
        lines.append(f"    {m} slain: {_pct(p, se.get('challenge_slain', {}).get(m))}")
    for pl, p in e.get("challenge_overkill", {}).items():
        lines.append(f"    overkill adds to {pl}'s score: "
                     f"{_pct(p, se.get('challenge_overkill', {}).get(pl))}")
    return lines
