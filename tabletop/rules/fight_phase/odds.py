"""What the fight would look like: odds for ``tabletop fight MAP --odds`` (fight-phase.txt 12.02-12.06).

The odds come from the real phase code, not a second copy of the attack
sequence: each history runs the phase's own steps (``sequence.phase_steps``,
so selection order, Fights First, fight types, each unit's ``attack_target``
as ``attacks.resolve_attacks`` picks it, allocation and casualty removal
through the geometry) with the dice of that history, and the outcome is read
from the events the rules emit (``selected_to_fight``, ``wounded``,
``removed``).  The distribution is exact when every history can be
enumerated (``tabletop.rules.dice.enumerate_outcomes``), else a stated Monte
Carlo estimate (``tabletop.rules.dice.monte_carlo``, fixed seeds) with its
standard error.

Named defaults:

``ODDS_STEPS``
    The steps run in every history: the Challenge Sub-phase, the Fight step
    (12.04-12.06) and the Resolution (the challenge rows only where the map's
    table has them, ``challenges = "gambit"``).  The steps before them (start, pile-in
    12.02-12.03) roll no dice, so they are resolved once and every history
    starts from the piled-in table (if they ever roll dice, every history
    runs them too).  Consolidation (12.07-12.08) is left out: it rolls no
    dice, and the fights it can start (12.08 AFTER MOVING, an engaging
    consolidation) are not counted.
``DEFAULT_RUNS`` / ``DEFAULT_SEED``
    Monte Carlo histories and the seed of their seeds: 100 histories keep
    the 112-model Hammer and Anvil table under 10 s (each history rebuilds
    the snapshot after every wound); ``runs`` / ``tabletop fight --odds
    --runs N`` for more.
``EXACT_MAX_HISTORIES`` / ``EXACT_MAX_ROLLS``
    Enumeration is tried when one history (the seeded one) rolled at most
    ``EXACT_MAX_ROLLS`` dice and the 6^n histories that implies are at most
    ``EXACT_MAX_HISTORIES``; the enumeration stops and falls back to Monte
    Carlo past that many histories.  Decided by counting, never by a clock,
    so the same map gives the same method (and numbers) on any machine.

Which units: the units engaged after the pile-in step (each engaged pair of
units is an engagement) and every unit that charged this turn.  "Wounds
caused" are wounds lost by enemy models (damage beyond a model's remaining
wounds is lost, ``casualties.lose_wounds``) while the unit was fighting;
"models removed" the enemy models its attacks removed.  Models a challenge
removes (gambit duels, ``challenges = "gambit"``) count in "models lost" but
are credited to no unit, so a unit's models lost can exceed what its enemies
removed.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from tabletop.board.state import Battlefield
from tabletop.errors import MapValidationError
from tabletop.rules.decisions import Decisions
from tabletop.rules.dice import Dice, enumerate_outcomes, monte_carlo
from tabletop.rules.events import Event, EventLog
from tabletop.rules.fight_phase.context import PhaseContext
from tabletop.rules.fight_phase.profiles import check_profiles
from tabletop.rules.fight_phase.sequence import PhaseStep, phase_steps

ODDS_STEPS = ("challenge", "fight", "resolution")
DEFAULT_RUNS = 100
DEFAULT_SEED = 1
EXACT_MAX_HISTORIES = 6 ** 5
EXACT_MAX_ROLLS = 12
RULE = "fight-phase.txt 12.02-12.06"


@dataclass
class _Tally:
    """Listener counting, per unit, wounds caused and models removed while it fights."""

    wounds_lost: dict[str, int]
    unit_of: dict[str, str]
    fighting: str | None = None
    wounds: dict[str, int] = field(default_factory=dict)
    removed: dict[str, int] = field(default_factory=dict)
    targets: dict[str, set[str]] = field(default_factory=dict)

    def __call__(self, ev: Event) -> None:
        if ev.type == "selected_to_fight":
            self.fighting = ev["unit"]
        elif ev.type == "attacks_resolved" and ev.get("attacks"):
            self.targets.setdefault(ev["unit"], set()).add(ev["target"])
        elif ev.type == "wounded":
            model = ev["model"]
            lost = ev["wounds_lost"] - self.wounds_lost.get(model, 0)
            self.wounds_lost[model] = ev["wounds_lost"]
            if self.fighting is not None:
                self.wounds[self.fighting] = self.wounds.get(self.fighting, 0) + lost
        elif ev.type == "removed" and ev.get("by"):
            self.removed[ev["by"]] = self.removed.get(ev["by"], 0) + 1


def _fork(ctx: PhaseContext, dice: Dice) -> PhaseContext:
    """A copy of the piled-in phase with fresh dice, log and decisions (same scripted ones used)."""
    log = EventLog()
    dec = Decisions(ctx.decisions.scripted, log, ctx.decisions.policy)
    dec.used = set(ctx.decisions.used)
    return replace(ctx, dice=dice, decisions=dec, log=log, selected=list(ctx.selected),
                   ever_eligible=set(ctx.ever_eligible),
                   engaged_at_fight_start=set(ctx.engaged_at_fight_start),
                   piled_in=set(ctx.piled_in), consolidated=set(ctx.consolidated),
                   casualties=[], moves=[], challenges=None, _geo=ctx._geo)


def _history(start: PhaseContext, steps: list[PhaseStep], units: list[str]) -> Callable[[Dice], tuple]:
    """``fn(dice) -> outcome`` running ``steps`` from ``start``; the outcome is, per unit of
    ``units``: (models lost, destroyed, models removed by it, wounds caused by it, targets)."""
    before = {u: len(start.state.unit(u).models) for u in units}
    wounds_lost = {m.id: m.wounds_lost for m in start.state.models()}
    unit_of = {m.id: m.unit_id for m in start.state.models()}

    def fn(dice: Dice) -> tuple:
        ctx = _fork(start, dice)
        tally = _Tally(dict(wounds_lost), unit_of)
        ctx.log.listeners.append(tally)
        for step in steps:
            step.run(ctx)
        out = []
        for u in units:
            left = len(ctx.state.unit(u).models) if ctx.alive(u) else 0
            out.append((before[u] - left, not ctx.alive(u), tally.removed.get(u, 0),
                        tally.wounds.get(u, 0), tuple(sorted(tally.targets.get(u, ())))))
        return tuple(out)
    return fn


def _prepare(state: Battlefield) -> tuple[PhaseContext, list[PhaseStep]]:
    """Run the steps before ``ODDS_STEPS`` once; return (context, steps each history runs)."""
    log = EventLog()
    ctx = PhaseContext(state, Dice(0), Decisions(state.decisions, log), log)
    table = phase_steps(state.rules)
    first = next(k for k, s in enumerate(table) if s.name in ODDS_STEPS)
    prefix = list(table[:first])
    steps = [s for s in table[first:] if s.name in ODDS_STEPS]
    for s in prefix:
        s.run(ctx)
    if ctx.dice.history:           # the prefix rolled dice: every history runs it
        log = EventLog()
        return PhaseContext(state, Dice(0), Decisions(state.decisions, log), log), prefix + steps
    return ctx, steps


def _distribution(fn: Callable[[Dice], tuple], runs: int, seed: int,
                  exact: bool) -> tuple[str, dict[tuple, Any]]:
    """("exact", {outcome: Fraction}) or ("monte carlo", {outcome: probability})."""
    if exact:
        dice = Dice(seed)
        fn(dice)
        rolled = len([f for r in dice.history for f in r.dice])
        if rolled <= EXACT_MAX_ROLLS and 6 ** rolled <= EXACT_MAX_HISTORIES:
            try:
                return "exact", enumerate_outcomes(fn, max_rolls=EXACT_MAX_ROLLS,
                                                   max_paths=EXACT_MAX_HISTORIES)
            except ValueError:
                pass
    est = monte_carlo(fn, runs=runs, seed=seed)
    return "monte carlo", {k: p for k, (p, _se) in est.items()}


def _num(p: Any) -> float:
    return float(p)


def _moments(dist: dict[tuple, Any], key: Callable[[tuple], float], runs: int | None
             ) -> tuple[Any, float | None]:
    """(expectation, its standard error for Monte Carlo else None)."""
    mean = sum((p * key(o) for o, p in dist.items()), Fraction(0) if runs is None else 0.0)
    if runs is None:
        return mean, None
    var = sum(p * (key(o) - mean) ** 2 for o, p in dist.items())
    return mean, math.sqrt(var / runs)


def _counts(dist: dict[tuple, Any], key: Callable[[tuple], int]) -> dict[str, float]:
    out: dict[int, Any] = {}
    for o, p in dist.items():
        out[key(o)] = out.get(key(o), 0) + p
    return {str(k): _num(out[k]) for k in sorted(out)}


def odds(state: Battlefield, runs: int | None = None, seed: int | None = None,
         exact: bool = True) -> dict[str, Any]:
    """Odds of the map's fight phase (module docstring), JSON-ready.

    Returns ``{"method": "exact" | "monte carlo", "runs": N | None, "seed": s,
    "steps": [...], "units": [{unit, player, charged, models, targets,
    expected_models_lost, p_destroyed, expected_models_removed,
    expected_wounds_caused, models_removed: {k: p}, wounds_caused: {k: p},
    ..._se (Monte Carlo) or ..._exact ("1/3", exact)}], "engagements":
    [{"units": [a, b], "p_wiped_out": {a: p, b: p}, ...}], "text": str}``.
    Probabilities are floats; models and wounds are counts.

    Raises ``MapValidationError`` (one line per problem) when a profile or
    weapon the attack sequence needs is missing or malformed.
    """
    problems = check_profiles(state)
    if problems:
        raise MapValidationError(problems)
    runs = DEFAULT_RUNS if runs is None else runs
    if runs < 1:
        raise MapValidationError([f"--runs {runs}: give at least 1 run"])
    seed = DEFAULT_SEED if seed is None else seed
    start, steps = _prepare(state)
    piled = start.state
    pairs = [list(p) for p in start.geo.engaged_unit_pairs]
    units = [u.id for u in piled.units
             if u.charged or any(u.id in p for p in pairs)]
    base: dict[str, Any] = {"method": None, "runs": None, "seed": seed,
                            "steps": [s.name for s in steps], "rule": RULE}
    if not units:
        return {**base, "method": "none", "units": [], "engagements": [],
                "text": "Fight odds: no unit is engaged or charged; nobody fights."}
    fn = _history(start, steps, units)
    method, dist = _distribution(fn, runs, seed, exact)
    n = None if method == "exact" else runs
    rows = []
    for i, u in enumerate(units):
        unit = piled.unit(u)
        lost, lost_se = _moments(dist, lambda o, i=i: o[i][0], n)
        dead, dead_se = _moments(dist, lambda o, i=i: int(o[i][1]), n)
        rem, rem_se = _moments(dist, lambda o, i=i: o[i][2], n)
        wnd, wnd_se = _moments(dist, lambda o, i=i: o[i][3], n)
        targets = sorted({t for o in dist for t in o[i][4]})
        row = {"unit": u, "player": unit.player, "charged": unit.charged,
               "models": len(unit.models), "targets": targets,
               "expected_models_lost": _num(lost), "p_destroyed": _num(dead),
               "expected_models_removed": _num(rem), "expected_wounds_caused": _num(wnd),
               "models_removed": _counts(dist, lambda o, i=i: o[i][2]),
               "wounds_caused": _counts(dist, lambda o, i=i: o[i][3])}
        if n is None:
            row.update({"p_destroyed_exact": str(dead), "expected_models_lost_exact": str(lost)})
        else:
            row.update({"expected_models_lost_se": lost_se, "p_destroyed_se": dead_se,
                        "expected_models_removed_se": rem_se, "expected_wounds_caused_se": wnd_se})
        rows.append(row)
    by_unit = {r["unit"]: r for r in rows}
    engagements = []
    for a, b in pairs:
        rec: dict[str, Any] = {"units": [a, b], "p_wiped_out": {a: by_unit[a]["p_destroyed"],
                                                                b: by_unit[b]["p_destroyed"]}}
        if n is not None:
            rec["p_wiped_out_se"] = {a: by_unit[a]["p_destroyed_se"], b: by_unit[b]["p_destroyed_se"]}
        engagements.append(rec)
    out = {**base, "method": method, "runs": n, "units": rows, "engagements": engagements}
    out["text"] = format_odds(out)
    return out


def _pct(p: float, se: float | None) -> str:
    return f"{100 * p:5.1f}%" + (f" +/- {100 * se:4.1f}" if se is not None else "")


def _num_se(x: float, se: float | None) -> str:
    return f"{x:5.2f}" + (f" +/- {se:4.2f}" if se is not None else "")


def _dist_text(d: dict[str, float]) -> str:
    return " ".join(f"{k}:{100 * p:.0f}%" for k, p in d.items())


def format_odds(odds_: dict[str, Any]) -> str:
    """The readable table ``tabletop fight MAP --odds`` prints."""
    mc = odds_["method"] == "monte carlo"
    how = (f"Monte Carlo, {odds_['runs']} runs from seed {odds_['seed']} (+/- one standard error)"
           if mc else "exact, every dice history enumerated")
    lines = [f"Fight odds ({RULE}; {how}; steps: {', '.join(odds_['steps'])}; "
             f"from the table after the pile-in step)"]
    w = max([len(r["unit"]) for r in odds_["units"]] + [4])
    lines.append(f"  {'unit':<{w}}  {'models':>6}  {'E[models lost]':>15}  {'P(destroyed)':>14}  "
                 f"{'E[wounds caused]':>16}  {'E[models removed]':>17}  attacks")
    for r in odds_["units"]:
        se = (lambda k, r=r: r.get(k + "_se")) if mc else (lambda k: None)
        tag = " (charged)" if r["charged"] else ""
        lines.append(
            f"  {r['unit']:<{w}}  {r['models']:>6}  "
            f"{_num_se(r['expected_models_lost'], se('expected_models_lost')):>15}  "
            f"{_pct(r['p_destroyed'], se('p_destroyed')):>14}  "
            f"{_num_se(r['expected_wounds_caused'], se('expected_wounds_caused')):>16}  "
            f"{_num_se(r['expected_models_removed'], se('expected_models_removed')):>17}  "
            f"{', '.join(r['targets']) or '-'}{tag}")
    lines.append("  models removed by each unit (count:probability):")
    for r in odds_["units"]:
        lines.append(f"    {r['unit']:<{w}}  {_dist_text(r['models_removed'])}")
    if odds_["engagements"]:
        lines.append("  engagements: P(wiped out)")
        for e in odds_["engagements"]:
            a, b = e["units"]
            se = e.get("p_wiped_out_se", {})
            lines.append(f"    {a} v {b}: {a} {_pct(e['p_wiped_out'][a], se.get(a)).strip()}, "
                         f"{b} {_pct(e['p_wiped_out'][b], se.get(b)).strip()}")
    return "\n".join(lines)
