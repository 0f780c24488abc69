"""What the fight would look like: odds for ``tabletop fight MAP --odds`` (fight-phase.txt 12.02-12.08).

The odds come from the phase's own rows (``sequence.phase``), not a second
copy of the attack sequence: the one odds engine (``engine.walk``) follows
every outcome of every chance the rows leave pending (the attacks made, the
hit roll as (hits, critical hits), the wound roll as (wounds, critical
wounds), each save, damage and Feel No Pain: ``attacks.py``), with its exact
probability, answering every question as the fight would (the map's
``[[decisions]]``, then the default policy: selection order, Fights First,
fight types, each unit's ``attack_target``), allocating and removing
casualties through the geometry, and merging states that are equal
(``key``: the row, what is pending, the phase's memo and every model's
place, wounds lost and statuses).  The outcome per unit is read from the
memo's tallies.

Named defaults:

``ODDS_STEPS``
    The steps weighed: the Challenge Sub-phase, the Fight step
    (12.04-12.06) and the Resolution (the challenge rows only where the map's
    table has them, ``challenges = "gambit"``).  The steps before them (start, pile-in
    12.02-12.03) roll no dice, so they are resolved once and every history
    starts from the piled-in table.  Consolidation (12.07-12.08) is weighed too: it
    rolls no dice itself, but an engaging consolidation makes the enemy units it engages
    that have not fought fight now (12.08 AFTER MOVING), and those fights are weighed
    like any other.  12.09 (End of Fight phase) rolls nothing and is not walked.
``CONSOLIDATION``
    The consolidation moves are solved only where they can matter: the walk weighs the
    phase up to Consolidation, asks of every table it ends on whether an engaging
    consolidation could start a fight there (``odds_consolidation``: a unit not engaged,
    an enemy within 3" to select, one that has not fought within its move plus the
    engagement range, and a point it could reach that is closer to the first and engaged
    with both), and walks Consolidation from those tables only.  There, a move is made
    while a fight can still follow and left unmade once none can (nothing else reads
    where a unit ends its consolidation).  The 60x44 layout has no such table, so its
    walk costs what the Fight step costs; the overrun and consolidation lessons do.  The
    Monte Carlo runs do the same: each runs the Fight step, then Consolidation only when the
    check says a fight can follow from where the run stands (``walk.monte_carlo``'s ``then``).
``PER_ENGAGEMENT``
    The exact walk weighs each engagement on its own (``odds_split``,
    ``engine.factored``): what the table shares (whose turn it is, which units are
    still there to select) is walked once, and each engagement's inner states only in
    its own turns, so its cost grows with the engagements added, not multiplied by
    them.  It stays exact: who strikes first in one engagement can depend on another's
    losses (the 12.04 alternation), and the walk follows that.  An engagement here is
    widened by ``OVERRUN_REACH`` (``reach_groups``): enemy units within the pile-in
    distance plus the engagement range join it, since an overrun fight's extra pile-in
    (12.06) can reach them.  Where engagements still join (a move engages across them)
    the table is walked whole with the engagements as parts (``engine.walk.exact_parts``).
``MAX_STATES``
    6,000 per engagement weighed apart (``PER_ENGAGEMENT``; at most ``EXACT_STATES``): the
    exact walk weighs at most this many states (``--exact``: ``EXACT_STATES``, 200,000), so
    a table of several fights is exact whenever each of its fights alone would be; on a map with gambit challenges too: the duel's chances are walked, its
    default policy's searches done once per situation (``gambit_rows.situation``).  Past
    the bound the odds are a seeded Monte Carlo estimate of the same rows, which says why,
    runs until the largest standard error of the figures shown (each unit's P(destroyed)
    and models-removed probabilities) is under ``TARGET_SE`` or ``MAX_RUNS`` runs, and
    prints its standard errors (``GAMBIT_RUNS`` runs on a gambit map, whose runs are
    costly).  Decided by counting, never by a clock, so the same map gives the same method
    (and numbers) on any machine.  The pile-in lesson weighs 37 states, the gambit
    lesson about 850, the 60x44 layout 1,843 (5,767 before an engagement's own work
    was shared, ``engine.factored``; 2,167 before own work that moved a model was
    replayed on another table rather than walked again).
``MAX_MADE``
    The whole-table walk (``exact_parts``) makes at most this many states (each chance
    outcome of each state weighed, before equal ones merge); past it, as past
    ``MAX_STATES``, the odds are sampled.
``SPLIT_MADE``
    60,000: the walk engagement by engagement (``factored.exact_split``) makes at most
    this many states (the 60x44 layout makes 2,569, every lesson under 400; one model
    rolling 10D6 attacks makes about 28,000, and stays exact); past it the odds are
    sampled, saying so.  A unit's attacks are bounded too (``board.limits.MAX_UNIT_ATTACKS``:
    twenty models at 10D6 took 94 s and 700 MB before).  ``--exact``:
    ``EXACT_MADE`` (1,000,000), so an exact walk asked for still ends.
``MAX_RUNS``
    100: the Monte Carlo cap when the standard errors are not yet under ``TARGET_SE``
    (the 60x44 layout's 100 runs cost about what main's did); ``--runs N`` sets more.
``DEFAULT_SEED``
    The Monte Carlo seed; ``runs`` / ``tabletop fight --odds --runs N`` fixes the
    number of runs instead (standard errors need at least 2).

Which units: the units engaged after the pile-in step (each engaged pair of
units is an engagement), every unit that charged this turn, and every unit that
becomes engaged during the phase (an overrun fight's extra pile-in, 12.06, or a
consolidation, 12.08, reaching it) and fights, is attacked or loses models in some
outcome.  "Wounds
caused" are wounds lost by enemy models (damage beyond a model's remaining
wounds is lost, ``casualties.lose_wounds``) to the unit's attacks;
"models removed" the enemy models its attacks removed.  Models a challenge
removes (gambit duels, ``challenges = "gambit"``) count in "models lost" but
are credited to no unit, so a unit's models lost can exceed what its enemies
removed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from dataclasses import replace
from fractions import Fraction
from typing import Any, cast

from tabletop.board.state import Battlefield
from tabletop.errors import MapValidationError
from tabletop.rules.dice import Dice
from tabletop.rules.engine import driver, factored, walk
from tabletop.rules.engine.machine import PhaseState
from tabletop.rules.fight_phase.context import geometry, tally_get
from tabletop.rules.fight_phase.odds_consolidation import ConsolidationCheck
from tabletop.rules.fight_phase.odds_key import memo_key as _memo_key
from tabletop.rules.fight_phase.odds_split import fight_split
from tabletop.rules.fight_phase.profiles import check_profiles
from tabletop.rules.fight_phase.sequence import phase
from tabletop.rules.odds_summary import PCT_WIDTH, at_least_lines, short_pct, unit_at_least

ODDS_STEPS = ("challenge", "fight", "challenge_resolution", "consolidate")
STEP_NAMES = {"challenge": "challenge", "fight": "fight", "challenge_resolution": "resolution",
              "consolidate": "consolidation"}
#: the row the odds walk stops at: 12.09 End of Fight phase, which rolls no dice
UNTIL = "phase_end"
MAX_STATES = 6_000
MAX_MADE = 1_500
SPLIT_MADE = 60_000
EXACT_MADE = 1_000_000
EXACT_STATES = 200_000
TARGET_SE = walk.TARGET_SE
MAX_RUNS = 100    # the 60x44 layout: ~8.5 s CPU (main: 100 runs, ~11 s); --runs N raises it
GAMBIT_RUNS = 100
#: named default (issue 9): ``--sample`` runs until every probability reported (P(destroyed),
#: P(k models removed)) has a standard error under ``TARGET_SE`` (half a percentage point), or
#: this many runs, as rank-and-flank's ``--sample`` does (``walk.MC_MAX_RUNS``); the text and
#: ``stopped`` in ``--json`` say which stopped it.  The estimate past the exact bound without
#: ``--sample`` keeps ``MAX_RUNS`` / ``GAMBIT_RUNS`` (the 60x44 layout's time) and says so.
SAMPLE_MAX_RUNS = walk.MC_MAX_RUNS
DEFAULT_SEED = 1
RULE = "fight-phase.txt 12.02-12.08"


def _unit_outcome(state: PhaseState, u: str, before: dict[str, int]) -> tuple:
    """(models lost, destroyed, models removed by it, wounds caused by it, targets it
    attacked) of unit ``u``."""
    bf, memo = state.battlefield, state.memo
    alive = bf.has_unit(u)
    left = len(bf.unit(u).models) if alive else 0
    return (before[u] - left, not alive, tally_get(memo.removed_by, u),
            tally_get(memo.wounds_caused, u),
            tuple(sorted(tally_get(memo.attacked, u, frozenset()))))


def _outcome(units: list[str], before: dict[str, int]) -> Callable[[PhaseState], tuple]:
    """Per unit of ``units``: its ``_unit_outcome``."""
    def outcome(state: PhaseState) -> tuple:
        return tuple(_unit_outcome(state, u, before) for u in units)
    return outcome


def engaged_groups(units: list[str], pairs: list[list[str]]) -> tuple[tuple[str, ...], ...]:
    """The units fallen into engagements: units joined by an engaged pair are in one
    (a unit engaged with two enemy units joins them), each unit engaged with nobody alone;
    in the order of ``units``."""
    part = {u: {u} for u in units}
    for a, b in pairs:
        if part[a] is not part[b]:
            joined = part[a] | part[b]
            for u in joined:
                part[u] = joined
    out: list[tuple[str, ...]] = []
    for u in units:
        group = tuple(x for x in units if x in part[u])
        if group not in out:
            out.append(group)
    return tuple(out)


def reach_groups(state: Battlefield, units: list[str], pairs: list[list[str]]
                 ) -> tuple[tuple[str, ...], ...]:
    """``engaged_groups`` widened for the split walk (``odds_split``): an enemy unit within
    ``OVERRUN_REACH`` (the pile-in distance plus the engagement range) of an engaged unit
    joins its engagement, since an overrun fight's extra pile-in (12.06) can engage it;
    engagements so joined are one.  Units in file order within each."""
    reach = state.rules.pile_in_distance + max(state.rules.engagement_range, 0.0)
    geo = geometry(state)
    near = [[u, e] for u in units for e in geo.enemy_units_within(u, reach)]
    everyone = [u.id for u in state.units if u.id in units or any(u.id in p for p in near)]
    return engaged_groups(everyone, pairs + near)


def _busy(memo: Any) -> set[str]:
    """The units a job under way belongs to (selected, moving or attacking)."""
    return {j.unit for j in (memo.fighting, memo.move, memo.attack) if j is not None}


def fight_parts(groups: tuple[tuple[str, ...], ...], before: dict[str, int]) -> walk.Parts:
    """The fight phase's engagements as parts of the odds walk (``PER_ENGAGEMENT``): an
    engagement is finished when each of its units is destroyed and no job of one of its
    units is under way, or the phase is over.  (A unit that has fought can still be fought:
    an engaging consolidation's new foes fight the unit that consolidated, 12.08.)"""
    index = {u: i for i, g in enumerate(groups) for u in g}

    def finished(state: PhaseState) -> frozenset:
        bf, memo = state.battlefield, state.memo
        if state.done:
            return frozenset(range(len(groups)))
        busy = _busy(memo)
        done = set()
        for i, g in enumerate(groups):
            if all(not bf.has_unit(u) and u not in busy for u in g):
                done.add(i)
        return frozenset(done)

    def outcome(state: PhaseState, i: Hashable) -> tuple:
        # cast: the walk hands back the part keys ``finished`` gave, indices into ``groups``
        return tuple(_unit_outcome(state, u, before) for u in groups[cast(int, i)])

    def print_(state: PhaseState, i: Hashable) -> tuple:
        bf = state.battlefield
        g = groups[cast(int, i)]   # cast: a part key from ``finished``, an index into ``groups``
        return outcome(state, i), tuple((m.id, m.x, m.y, m.facing_deg, m.wounds_lost,
                                         tuple(m.status)) for u in g if bf.has_unit(u)
                                        for m in bf.unit(u).models)

    def key_(state: PhaseState, fin: frozenset) -> Hashable:
        gone = {u for i in fin for u in groups[i]}
        memo = state.memo

        def keep(units: Any) -> Any:
            return type(units)(u for u in units if u not in gone)

        def keep_tally(t: Any) -> Any:
            return tuple((k, v) for k, v in t if k not in gone)
        memo = replace(memo, selected=keep(memo.selected), ever_eligible=keep(memo.ever_eligible),
                       engaged_at_fight_start=keep(memo.engaged_at_fight_start),
                       dropped_out=keep(memo.dropped_out),
                       wounds_caused=keep_tally(memo.wounds_caused),
                       removed_by=keep_tally(memo.removed_by), attacked=keep_tally(memo.attacked))
        models = tuple((m.id, m.x, m.y, m.facing_deg, m.wounds_lost, tuple(m.status))
                       for m in state.battlefield.models() if index.get(m.unit_id, -1) not in fin)
        return fin, state.cursor, state.pending, _memo_key(memo), models

    return walk.Parts(tuple(range(len(groups))), finished, outcome, key_, print_)


def _measure(n_units: int) -> Callable[[dict[Any, float], int], float]:
    """The largest standard error of the probabilities shown: P(destroyed) and P(k models
    removed) of each unit."""
    def measure(dist: dict[Any, float], runs: int) -> float:
        worst = 0.0
        for i in range(n_units):
            figures: dict[Any, float] = {}
            for o, p in dist.items():
                figures[("dead", o[i][1])] = figures.get(("dead", o[i][1]), 0.0) + p
                figures[("removed", o[i][2])] = figures.get(("removed", o[i][2]), 0.0) + p
            for p in figures.values():
                worst = max(worst, math.sqrt(max(0.0, p * (1 - p)) / runs))
        return worst
    return measure


def _piled_in(state: Battlefield) -> tuple[PhaseState, str]:
    """The phase resolved up to the first of ``ODDS_STEPS`` (no dice before it): the state
    there and that row's name."""
    machine, start = phase(state)
    first = next(r for r in ("challenge", "fight") if r in machine.rows)
    machine, start = phase(state, until=first)
    run = driver.run(machine, start, dice=Dice(0), scripted=state.decisions)
    return replace(run.state, cursor=first), first


@walk.cycles_paused()     # the pile-in step before the walk too (engine.walk)
def odds(state: Battlefield, runs: int | None = None, seed: int | None = None,
         exact: bool = True, max_states: int | None = None,
         exhaustive: bool = False) -> dict[str, Any]:
    """Odds of the map's fight phase (module docstring), JSON-ready.

    Returns ``{"method": "exact" | "monte carlo" | "none", "runs": N | None, "seed": s,
    "steps": [...] (what is weighed: "challenge", "fight", "resolution", "consolidation"), "why": str (Monte Carlo), "units": [{unit, player, charged, models,
    targets, expected_models_lost, p_destroyed, expected_models_removed,
    expected_wounds_caused, models_removed: {k: p}, wounds_caused: {k: p}, models_lost:
    {k: p} (the models it loses, by anyone), ..._se (Monte
    Carlo; None from fewer than 2 runs) or ..._exact ("1/3", exact)}], "engagements":
    [{"units": [a, b], "p_wiped_out": {a: p, b: p}, ...}], "text": str}``.
    Probabilities are floats; models and wounds are counts.  ``runs`` fixes the number of
    Monte Carlo runs (None: until the standard errors are under ``TARGET_SE``);
    ``exact=False`` samples without trying the exact walk; ``max_states`` (None:
    ``MAX_STATES``) bounds the states the exact walk weighs (``EXACT_STATES`` for
    ``tabletop fight --odds --exact``, which ``exhaustive`` sets).

    Raises ``MapValidationError`` (one line per problem) when a profile or
    weapon the attack sequence needs is missing or malformed, or ``runs`` < 1.
    """
    problems = check_profiles(state)
    if problems:
        raise MapValidationError(problems)
    if runs is not None and runs < 1:
        raise MapValidationError([f"--runs {runs}: give at least 1 run"])
    seed = DEFAULT_SEED if seed is None else seed
    start, first = _piled_in(state)
    machine, _ = phase(state, until=UNTIL)
    piled = start.battlefield
    pairs = [list(p) for p in geometry(piled).engaged_unit_pairs]
    units = [u.id for u in piled.units if u.charged or any(u.id in p for p in pairs)]
    steps = [STEP_NAMES[r] for r in ODDS_STEPS if r in machine.rows]
    base: dict[str, Any] = {"method": None, "runs": None, "seed": seed, "steps": steps,
                            "rule": RULE}
    if not units:
        return {**base, "method": "none", "units": [], "engagements": [],
                "text": "Fight odds: no unit is engaged or charged; nobody fights."}
    # every unit that may take part: the engaged and charged ones, and the enemy units an
    # overrun fight's extra pile-in or a consolidation may engage (``reach_groups``); those
    # last get a row only when they fight or lose models in some outcome (``_takes_part``)
    wide = reach_groups(piled, units, pairs)
    engaged = units
    units = [u.id for u in piled.units if any(u.id in g for g in wide)]
    before = {u: len(piled.unit(u).models) for u in units}
    groups = engaged_groups(units, pairs)
    gambit = "challenge" in machine.rows
    why = None
    if not exact:
        why = "asked for a Monte Carlo estimate (--sample)"
    per_unit: list[dict[tuple, Any]] | None = None
    states = None
    if exhaustive and max_states is None:
        max_states = EXACT_STATES
    # the bound grows with the engagements weighed apart (``PER_ENGAGEMENT``): each adds
    # its own turns' states, so a table of several fights is exact when each one alone is
    bound = min(MAX_STATES * len(wide), EXACT_STATES) if max_states is None else max_states
    # the Fight step first; Consolidation only from the tables where it can start a fight
    # (``CONSOLIDATION``), in the exact walk and in each sampled run
    order = tuple(u.id for u in piled.units)
    split = fight_split(wide, order, before)
    check = ConsolidationCheck(wide, split, {u.id: u.player for u in piled.units})

    def hold(template: PhaseState, dists: Any) -> PhaseState | None:
        if "consolidate" not in machine.rows or not check.possible(template, dists):
            return None
        return replace(template, cursor="consolidate")

    def go_on(end: PhaseState) -> PhaseState | None:
        return hold(end, tuple({k: (data, 1)} for k, data in
                               (split.inner(end, i) for i in range(split.parts))))
    fight_step = phase(state, until="consolidate")[0] if "consolidate" in machine.rows \
        else machine
    if why is None:
        try:
            held: list[Any] = []
            made = SPLIT_MADE if max_states is None else EXACT_MADE
            marg, states = factored.exact_split(fight_step, start, split, scripted=state.decisions,
                                                max_states=bound, hold=hold, held=held,
                                                max_made=made)
            if held:
                split = fight_split(wide, order, before, quiet=check.quiet)
                more, n_more = factored.exact_split(machine, start, split,
                                                    scripted=state.decisions,
                                                    max_states=bound - states, resume=held,
                                                    max_made=made)
                states += n_more
                for part, dist in more.items():
                    for o, p in dist.items():
                        marg[part][o] = marg[part].get(o, Fraction(0)) + p
            per_unit = _per_unit(units, wide, marg)
        except walk.TooManyStates as too_many:
            made_bound = SPLIT_MADE if max_states is None else EXACT_MADE
            why = (f"an exact walk would make more than {made_bound:,} states (every chance "
                   f"outcome before equal ones merge: the bound, fight_phase.odds.SPLIT_MADE, "
                   f"{EXACT_MADE:,} with --exact, EXACT_MADE; --sample skips the walk)"
                   if "to make" in str(too_many) else
                   f"an exact walk would weigh more than {bound:,} states (the bound with "
                   f"--exact, fight_phase.odds.EXACT_STATES)" if bound >= EXACT_STATES else
                   f"an exact walk would weigh more than {bound:,} states (the bound, "
                   f"fight_phase.odds.MAX_STATES: {MAX_STATES:,} per engagement, "
                   f"{len(wide)} here; --exact raises it to {EXACT_STATES:,}, --sample "
                   f"skips the walk)")
        except walk.NotApart as e:
            try:        # the engagements join: the table weighed whole, engagements as parts
                got = walk.exact_parts(machine, start, fight_parts(groups, before),
                                       scripted=state.decisions, max_states=bound,
                                       max_children=MAX_MADE if max_states is None else None)
                per_unit = _per_unit(units, groups, got.parts)
                states = got.states
            except walk.TooManyStates:
                why = (f"the engagements do not stay apart ({e}), and an exact walk of the "
                       f"table would weigh more than {bound} states or make more than "
                       f"{MAX_MADE} (the bounds, fight_phase.odds.MAX_STATES and MAX_MADE)")
    n = None
    if per_unit is None:
        cap = GAMBIT_RUNS if gambit else MAX_RUNS
        if not exact:
            cap = SAMPLE_MAX_RUNS
        min_runs, max_runs, batch = min(200, cap), cap, min(200, cap)
        if runs is not None:
            min_runs = max_runs = batch = runs
        result = walk.monte_carlo(fight_step, start, outcome=_outcome(units, before),
                                  scripted=state.decisions, seed=seed, target_se=TARGET_SE,
                                  measure=_measure(len(units)), min_runs=min_runs,
                                  max_runs=max_runs, batch=batch, then=(machine, go_on))
        n = result.runs
        max_se = result.max_se
        assert max_se is not None                   # a Monte Carlo result always has one
        if runs is not None:
            stopped = f"{n} runs asked for (--runs)"
        elif max_se < TARGET_SE:
            stopped = (f"every probability's standard error is under {100 * TARGET_SE:.1f} "
                       f"percentage points")
        else:
            stopped = (f"the cap of {n:,} runs ({'SAMPLE_MAX_RUNS' if not exact else 'MAX_RUNS' if not gambit else 'GAMBIT_RUNS'}); "
                       f"the largest standard error is {100 * max_se:.1f} percentage points")
        per_unit = []
        for i in range(len(units)):
            d: dict[Any, float] = {}
            for o, p in result.dist.items():
                d[o[i]] = d.get(o[i], 0.0) + p
            per_unit.append(d)
    rows = []
    attacked = {t for dist in per_unit for o, p in dist.items() if p for t in o[4]}
    for u, dist in zip(units, per_unit):
        if u not in engaged and u not in attacked and not _takes_part(dist):
            continue
        unit = piled.unit(u)
        lost, lost_se = _moments(dist, lambda o: o[0], n)
        dead, dead_se = _moments(dist, lambda o: int(o[1]), n)
        rem, rem_se = _moments(dist, lambda o: o[2], n)
        wnd, wnd_se = _moments(dist, lambda o: o[3], n)
        targets = sorted({t for o in dist for t in o[4]})
        row = {"unit": u, "player": unit.player, "charged": unit.charged,
               "models": len(unit.models), "targets": targets,
               "expected_models_lost": _num(lost), "p_destroyed": _num(dead),
               "expected_models_removed": _num(rem), "expected_wounds_caused": _num(wnd),
               "models_removed": _counts(dist, lambda o: o[2]),
               "wounds_caused": _counts(dist, lambda o: o[3]),
               # its own losses, whoever caused them (the charge preview's chart per unit)
               "models_lost": _counts(dist, lambda o: o[0])}
        if n is None:
            row.update({"p_destroyed_exact": str(dead), "expected_models_lost_exact": str(lost)})
        else:
            row.update({"expected_models_lost_se": lost_se, "p_destroyed_se": dead_se,
                        "expected_models_removed_se": rem_se, "expected_wounds_caused_se": wnd_se,
                        "models_removed_se": {k: _p_se(p, n) for k, p in
                                              _counts(dist, lambda o: o[2]).items()}})
        row.update(unit_at_least(dist, {"models_lost": (lambda o: o[0], len(unit.models)),  # odds_summary
                                        "wounds_caused": (lambda o: o[3], None)}, exact=n is None, runs=n))
        rows.append(row)
    by_unit = {r["unit"]: r for r in rows}
    engagements = []
    # the pairs engaged after the pile-in step, then those a fight joined during the phase
    # (an overrun's extra pile-in, 12.06, or an engaging consolidation's new foes, 12.08):
    # a unit and a target it attacked in some outcome
    known = {frozenset(p) for p in pairs}
    later: list[list[str]] = []
    for r in rows:
        u = str(r["unit"])
        for t in cast(list, r["targets"]):
            if t in by_unit and frozenset((u, t)) not in known:
                known.add(frozenset((u, t)))
                later.append(sorted([t, u]))
    for (a, b), formed in [(p, "pile-in") for p in pairs] + [(p, "during the phase") for p in later]:
        rec: dict[str, Any] = {"units": [a, b], "p_wiped_out": {a: by_unit[a]["p_destroyed"],
                                                                b: by_unit[b]["p_destroyed"]},
                               "formed": formed}
        if n is not None:
            rec["p_wiped_out_se"] = {a: by_unit[a]["p_destroyed_se"], b: by_unit[b]["p_destroyed_se"]}
        engagements.append(rec)
    out = {**base, "method": "exact" if n is None else "monte carlo", "runs": n, "units": rows,
           "engagements": engagements}
    if n is not None:
        out["why"] = why
        out["stopped"] = stopped
        out["max_se"] = max_se
    else:
        out["states"] = states
    out["text"] = "\n".join([format_odds(out)] + at_least_lines(rows))
    return out


def _takes_part(dist: dict[tuple, Any]) -> bool:
    """Whether a unit not engaged after the pile-in step loses models, is destroyed, or
    attacks (removes, wounds or targets a unit) in some outcome of ``dist`` (its
    ``_unit_outcome``s) with a chance above 0."""
    return any(p and (o[0] or o[1] or o[2] or o[3] or o[4]) for o, p in dist.items())


def _per_unit(units: list[str], groups: tuple[tuple[str, ...], ...],
              parts: dict[Any, dict[Any, Fraction]]) -> list[dict[tuple, Fraction]]:
    """Each unit's distribution of outcomes from its part's."""
    where = {u: (i, j) for i, g in enumerate(groups) for j, u in enumerate(g)}
    out = []
    for u in units:
        i, j = where[u]
        d: dict[tuple, Fraction] = {}
        for o, p in parts[i].items():
            d[o[j]] = d.get(o[j], Fraction(0)) + p
        out.append(d)
    return out


def _num(p: Any) -> float:
    return float(p)


def _moments(dist: dict[tuple, Any], key: Callable[[tuple], float], runs: int | None
             ) -> tuple[Any, float | None]:
    """(expectation, its standard error for Monte Carlo else None; None too from fewer than
    2 runs, where it cannot be estimated)."""
    mean = sum((p * key(o) for o, p in dist.items()), Fraction(0) if runs is None else 0.0)
    if runs is None or runs < 2:
        return mean, None
    var = sum(p * (key(o) - mean) ** 2 for o, p in dist.items()) * runs / (runs - 1)
    return mean, math.sqrt(var / runs)      # the sample variance (n - 1), over n


def _counts(dist: dict[tuple, Any], key: Callable[[tuple], int]) -> dict[str, float]:
    out: dict[int, Any] = {}
    for o, p in dist.items():
        out[key(o)] = out.get(key(o), 0) + p
    return {str(k): _num(out[k]) for k in sorted(out)}


def _p_se(p: float, runs: int | None) -> float | None:
    """The standard error of a probability estimated from ``runs`` runs (None: exact, or
    fewer than 2 runs)."""
    if runs is None or runs < 2:
        return None
    return math.sqrt(max(0.0, p * (1 - p)) / runs)


def _pct(p: float, se: float | None, runs: int | None = None) -> str:
    """A probability as printed; a sampled 0 or 1 (standard error 0) says it was seen in
    none or all of the ``runs`` rather than a false "+/- 0.0"."""
    if se == 0 and p in (0, 1):
        n = f" {runs:,}" if runs else ""
        return f"{short_pct(p, PCT_WIDTH)} ({'seen in every one of' if p else 'not seen in'}{n} runs)"
    return short_pct(p, PCT_WIDTH) + (f" +/- {100 * se:4.1f}" if se is not None else "")


def _num_se(x: float, se: float | None) -> str:
    return f"{x:5.2f}" + (f" +/- {se:4.2f}" if se is not None else "")


def _dist_text(d: dict[str, float], se: dict[str, float | None] | None = None) -> str:
    """``count:percent`` pairs (``odds_summary.short_pct``: one decimal, as every line of the
    report; ``<0.05%``, ``>99.95%`` for a chance that rounds to 0 or 100 but is not); sampled (``se``), each with its standard error."""
    def err(k: str) -> str:
        e = (se or {}).get(k)
        return (f"+/-{100 * e:.1f}" if e >= 0.0005 else f"+/-{100 * e:.2f}") if e else ""
    return " ".join(f"{k}:{short_pct(p)}{err(k)}" for k, p in d.items())


def format_odds(odds_: dict[str, Any]) -> str:
    """The readable table ``tabletop fight MAP --odds`` prints."""
    mc = odds_["method"] == "monte carlo"
    if mc and odds_["runs"] < 2:
        how = (f"Monte Carlo, {odds_['runs']} run from seed {odds_['seed']}: no standard error "
               f"(it cannot be estimated from fewer than 2 runs)")
    elif mc:
        how = f"Monte Carlo, {odds_['runs']} runs from seed {odds_['seed']} (+/- one standard error)"
    else:
        how = "exact, every chance outcome weighed"
    if mc and odds_.get("why"):
        how += f", because {odds_['why']}"
    if mc and odds_.get("stopped"):
        how += f"; stopped: {odds_['stopped']}"
    lines = [f"Fight odds ({RULE}; {how}; steps: {', '.join(odds_['steps'])}; "
             f"from the table after the pile-in step; choices as the fight makes them: the "
             f"map's [[decisions]], then the default policy)"]
    w = max([len(r["unit"]) for r in odds_["units"]] + [4])
    lines.append(f"  {'unit':<{w}}  {'models':>6}  {'E[models lost]':>15}  {'P(destroyed)':>14}  "
                 f"{'E[wounds caused]':>16}  {'E[models removed]':>17}  attacks")
    for r in odds_["units"]:
        se = (lambda k, r=r: r.get(k + "_se")) if mc else (lambda k: None)
        tag = " (charged)" if r["charged"] else ""
        lines.append(
            f"  {r['unit']:<{w}}  {r['models']:>6}  "
            f"{_num_se(r['expected_models_lost'], se('expected_models_lost')):>15}  "
            f"{_pct(r['p_destroyed'], se('p_destroyed'), odds_['runs']):>14}  "
            f"{_num_se(r['expected_wounds_caused'], se('expected_wounds_caused')):>16}  "
            f"{_num_se(r['expected_models_removed'], se('expected_models_removed')):>17}  "
            f"{', '.join(r['targets']) or '-'}{tag}")
    if "challenge" in odds_["steps"]:
        lines.append("  models lost include characters slain in a challenge, which no unit's "
                     "\"models removed\" counts")
    lines.append("  models removed by each unit (count:probability):")
    for r in odds_["units"]:
        lines.append(f"    {r['unit']:<{w}}  "
                     f"{_dist_text(r['models_removed'], r.get('models_removed_se'))}")
    if odds_["engagements"]:
        lines.append("  engagements: each unit's P(destroyed) over the whole phase (the Fight "
                     "step and the fights an engaging consolidation starts), not by that one enemy")
        for e in odds_["engagements"]:
            a, b = e["units"]
            se = e.get("p_wiped_out_se", {})
            when = " (joined during the phase)" if e.get("formed") == "during the phase" else ""
            lines.append(f"    {a} v {b}: {a} {_pct(e['p_wiped_out'][a], se.get(a), odds_['runs']).strip()}, "
                         f"{b} {_pct(e['p_wiped_out'][b], se.get(b), odds_['runs']).strip()}{when}")
    return "\n".join(lines)
