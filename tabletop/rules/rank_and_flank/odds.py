"""Odds of an engagement from the phase's own rows (docs/design.md "Conventions: Dice"; ``engine.walk``).

For each engagement: the chance each side wins the combat score, of a tie,
and that the loser breaks (fails a break test: it flees or is destroyed).

The round is the fight's own: ``phase.round_machine`` runs the phase's rows
of one engagement from ``open`` to ``break`` (with ``[rules] challenges =
"character"`` a challenge is issued, accepted or refused first,
character-challenge.txt ¶1-¶5, its questions answered by the map's
``[[decisions]]`` then the default policy, exactly as ``tabletop fight``
answers them; then who attacks; then one chance per roll group - how many
of its attacks wound - the duellists' blows, the combat score and one
chance per losing unit's break test).  ``engine.walk.odds`` follows every
outcome of every chance with its exact probability, merging equal states
(``phase.key``: the row, the tally of wounds, who broke), so the 6^N dice
histories are never walked.  Exact or sampled is decided by counting: when
more than ``max_paths`` states would be weighed it says so and samples
(seeded runs until the largest standard error of a figure is under half a
percentage point, or ``runs`` runs).  With a challenge the result also
holds ``challenge`` (who fights, or who retired in disgrace) and, when two
characters fight, ``challenge_slain`` {model: p} and ``challenge_overkill``
{player: p that overkill adds to its score}.
"""

from __future__ import annotations

from typing import Any

from tabletop.board.state import Battlefield
from tabletop.rules.engine import walk
from tabletop.rules.engine.driver import default_policy, scripted_answer
from tabletop.rules.engine.machine import PhaseState
from tabletop.rules.engine.pending import Question
from tabletop.rules.odds_summary import PCT_WIDTH, at_least, at_least_line, counts, short_pct
from tabletop.rules.rank_and_flank.phase import forget_geometry, geometry, key, round_machine

MAX_PATHS = walk.MAX_STATES
RUNS = walk.MC_MAX_RUNS


def _result(state: PhaseState) -> tuple:
    """What the figures read from a finished round: (winner, broken units[, slain, overkill],
    models lost per unit) - the last always last, as sorted ``(unit, n)`` pairs."""
    m = state.memo
    winner, _tests, challenge = m.verdict
    if challenge is None:
        return winner, m.broken, m.lost
    return (winner, m.broken) + challenge + (m.lost,)


def _to_first_chance(machine, state: PhaseState, scripted) -> PhaseState:
    """Answer the round's questions as the fight does (the map's ``[[decisions]]``, then the
    default policy) up to its first chance: the plan every outcome shares."""
    state, _ = machine.advance(state)
    while isinstance(state.pending, Question):
        q = state.pending
        found, value, state, _ = scripted_answer(state, q, scripted)
        state, _ = machine.answer(state, value if found else default_policy(q))
    return state


def engagement_odds(state: Battlefield, units: list[str], *, max_paths: int | None = None,
                    runs: int = RUNS, seed: int = 1, exact: bool = True) -> dict[str, Any]:
    """Odds of one engagement's round (see the module docstring).

    Returns
    -------
    dict
        ``units``, ``players``, ``method`` ("exact" or "monte carlo"),
        ``histories`` (exact: the states the walk weighed, equal states merged)
        or ``runs``, ``seed`` and ``why``, ``win`` {player: p}, ``tie`` p,
        ``loser_breaks`` {player: p that it loses and one of its units
        breaks}, ``breaks`` {unit: p}, and ``exact`` (the figures as
        fractions) or ``se`` (each figure's standard error).  ``max_paths``
        (default ``MAX_PATHS``) bounds the states the exact walk weighs.
    """
    max_paths = MAX_PATHS if max_paths is None else max_paths
    machine, start = round_machine(state, units)
    start = _to_first_chance(machine, start, state.decisions)
    memo = start.memo
    plan = memo.plan
    players = plan.ctx.players() if plan is not None else []
    pair = plan.pair if plan is not None else None
    owner = {m: plan.ctx.state.owner(m) for m in pair} if pair else {}

    def figures_of(p_of) -> dict[str, Any]:
        figs = {
            "win": {pl: p_of(lambda k, pl=pl: k[0] == pl) for pl in players},
            "tie": p_of(lambda k: k[0] is None),
            "loser_breaks": {pl: p_of(lambda k, pl=pl: k[0] is not None and k[0] != pl and any(
                state.unit(u).player == pl for u in k[1])) for pl in players},
            "breaks": {u: p_of(lambda k, u=u: u in k[1]) for u in units},
        }
        if pair:
            figs["challenge_slain"] = {m: p_of(lambda k, m=m: m in k[2]) for m in pair}
            figs["challenge_overkill"] = {owner[m]: p_of(lambda k, pl=owner[m]: any(
                q == pl for q, _ in k[3])) for m in pair}
        return figs

    def measure(dist: dict, n: int) -> float:
        """The largest standard error of a reported figure."""
        def p_of(test):
            return sum(p for k, p in dist.items() if test(k))
        vals = []
        for v in figures_of(p_of).values():
            vals += list(v.values()) if isinstance(v, dict) else [v]
        for d in unit_counts(dist).values():
            vals += list(d.values())
        return max((walk.binomial_se(p, n) for p in vals), default=0.0)

    models = {u: len(state.unit(u).models) for u in units}

    def unit_counts(dist: dict) -> dict[str, dict[int, Any]]:
        """Each unit's models lost ``{count: p}`` from the outcomes' last item."""
        def lost_of(u: str) -> Any:
            return lambda k: dict(k[-1]).get(u, 0)
        return {u: counts(dist, lost_of(u)) for u in units}

    result: dict[str, Any] = {"units": list(units), "players": players}
    why = "exact odds not asked for"
    got = None
    if exact:
        try:
            got = walk.exact(machine, start, outcome=_result, key=key, scripted=state.decisions,
                             max_states=max_paths)
        except walk.TooManyStates:
            why = (f"more than {max_paths} states to weigh (dice histories merged where they "
                   "reach the same table)")
    if got is None:
        got = walk.monte_carlo(machine, start, outcome=_result, scripted=state.decisions,
                               seed=seed, max_runs=runs, min_runs=min(walk.MC_MIN_RUNS, runs),
                               batch=min(walk.MC_BATCH, runs), measure=measure)
        result.update(method="monte carlo", runs=got.runs, seed=seed, why=why)
    else:
        result.update(method="exact", histories=got.states)

    def p_of(test):
        return got.p(test)
    figures = figures_of(p_of)
    if memo.facts is not None:
        result["challenge"] = dict(memo.facts)

    def as_float(v):
        return {k: float(x) for k, x in v.items()} if isinstance(v, dict) else float(v)

    for name, v in figures.items():
        result[name] = as_float(v)
    lost = unit_counts(got.dist)
    losses = {
        "models_lost": {u: {str(c): d[c] for c in sorted(d)} for u, d in lost.items()},
        # destroyed: every model lost to the round's blows (P(lost >= models))
        "p_destroyed": {u: at_least(lost[u], models[u])[models[u]] for u in units},
        "models_lost_at_least": {u: {str(c): p for c, p in at_least(lost[u], models[u]).items()}
                                 for u in units},
    }
    result["models"] = models
    for name, v in losses.items():
        result[name] = {u: as_float(x) for u, x in v.items()}
    if got.method == "exact":
        result["exact"] = {name: ({k: str(x) for k, x in v.items()} if isinstance(v, dict)
                                  else str(v)) for name, v in figures.items()}
        for name, v in losses.items():
            result["exact"][name] = {u: ({c: str(x) for c, x in d.items()}
                                         if isinstance(d, dict) else str(d)) for u, d in v.items()}
    else:
        mc_runs = got.runs
        assert mc_runs is not None   # a Monte Carlo estimate counts its runs

        def se(p: float) -> float:
            return walk.binomial_se(p, mc_runs)
        result["se"] = {name: ({k: se(x) for k, x in result[name].items()}
                               if isinstance(result[name], dict) else se(result[name]))
                        for name in figures}
        for name in losses:
            result["se"][name] = {u: ({c: se(x) for c, x in d.items()}
                                      if isinstance(d, dict) else se(d))
                                  for u, d in result[name].items()}
    return result


@walk.cycles_paused()     # the phase set up before the walks too (engine.walk)
def odds(state: Battlefield, **opts: Any) -> dict[str, Any]:
    """Odds of every engagement on the map: ``{"engagements": [engagement_odds(...), ...], "text": str}``.

    Options: ``max_paths``, ``runs``, ``seed``, ``exact`` (see ``engagement_odds``);
    ``exhaustive`` (``tabletop fight --odds --exact``) sets ``max_paths`` to the engine's
    own bound, ``walk.MAX_STATES`` (the default already).
    """
    if opts.pop("exhaustive", False):
        opts.setdefault("max_paths", walk.MAX_STATES)
    forget_geometry()
    geo = geometry(state)
    out = [engagement_odds(state, g, **opts) for g in geo.engagements
           if len({state.unit(u).player for u in g}) > 1]
    return {"engagements": out, "text": format_odds(out)}


def _pct(p: float, se: float | None = None) -> str:
    return short_pct(p, PCT_WIDTH) + (f" +/- {100 * se:.1f}" if se is not None else "")


def format_odds(engagements: list[dict[str, Any]]) -> str:
    """The odds as lines a player reads."""
    if not engagements:
        return "No engagements: no unit is in base contact with an enemy."
    lines = []
    for k, e in enumerate(engagements, 1):
        se = e.get("se")
        how = (f"exact, {e['histories']} states weighed" if e["method"] == "exact"
               else f"Monte Carlo estimate, {e['runs']} runs (seed {e['seed']}), +/- one standard error")
        lines.append(f"Engagement {k}: {' v '.join(e['units'])} ({how})")
        for pl in e["players"]:
            lines.append(f"  combat score won by {pl}: {_pct(e['win'][pl], se and se['win'][pl])}"
                         f"; {pl} loses and breaks: "
                         f"{_pct(e['loser_breaks'][pl], se and se['loser_breaks'][pl])}")
        lines.append(f"  tie (nobody tests): {_pct(e['tie'], se and se['tie'])}")
        for u, p in e["breaks"].items():
            lines.append(f"  {u} breaks: {_pct(p, se and se['breaks'][u])}")
        for u in e["units"]:
            tail = at_least_line(e["models_lost_at_least"][u], e["models"][u])
            if tail:
                lines.append(f"  {u}: {tail}")
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
