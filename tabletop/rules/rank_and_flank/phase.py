"""The rank-and-flank combat phase as rows of the rules engine (rank-and-flank-combat.txt;
docs/design.md "The rules engine").

One round of every engagement (``Geometry.engagements``: the connected
groups of units in base contact), one after the other, in map order of their
first unit.  The phase is a table of rows over a frozen ``PhaseState`` whose
``memo`` is a ``Memo``; rows never roll and never ask: they leave a
``Question`` or a ``Chance`` pending and the driver (``engine.driver``), the
window or the odds walk (``engine.walk``, ``odds.py``) answers it.

Rows (``rows(rules, odds=False)``), in order:

``start``        the engagements (event ``engagements`` or ``no_engagements``);
``engagement``   the next engagement with two players left (else the end);
``open``         the round's ``OPEN`` rows (``round.round_steps``: with
                 ``challenges = "character"`` issue, accept or refuse,
                 character-challenge.txt ¶1-¶5: Questions ``issue_challenge``,
                 ``accept_challenge``, ``disgrace``);
``plan``         the ``PLAN`` rows (who attacks; commanders: Question
                 ``commander_target``; the duellists); events ``engagement``,
                 ``unit_geometry``, ``attackers``, ``duel``, ``note``;
``strike``       one Chance per roll group (``round.roll_groups``, in dice order):
                 how many of its attacks wound (``counts.successes(n, p)``);
                 event ``blows``;
``duel``         with ``challenges = "character"`` only: one Chance per duellist,
                 the wounds it inflicts (``character_duel.inflicted_distribution``);
``duel_result``  the challenge's result and combat score (¶6), event ``challenge_result``;
``casualties``   wound pools applied, steps up, closing up, combat score
                 (deterministic: ``removed``, ``wounded``, ``stepped_up``,
                 ``closed_up``, ``combat_score``);
``break``        one Chance per losing unit: pass/fail of 2D6 against its target
                 (``counts.at_most(dice_sum(2), target)``) or the crumble's D3;
                 event ``break_test``, then ``fled``/``destroyed`` or the crumble's
                 casualties;
``turn``         turning to face, the ``CLOSE`` rows (a challenge goes on or ends)
                 and the end of the first round after a charge (``charge_over``).

The odds (``odds.py``) run the same rows from ``open`` to ``break`` for one
engagement (``odds=True``: ``casualties`` works out the score without moving
models, ``break`` only records who broke).  Each chance's ``draw`` rolls the
real dice with the phase's ``Dice`` in the order the old resolver rolled
them (units in engagement order, each unit's groups front, lance, flank,
support, commanders, duels; then the duellists; then the break tests), so
every roll is logged as before.

Mutable helpers from the rest of the package (``round.plan_round``, the
challenge's ``challenge_step``) that ask through ``decisions.choose`` run
here through ``_asking``: re-run from their start with the answers given so
far (they are deterministic), they stop at the first new question, which the
row leaves pending; events they emitted before it are passed on once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

from tabletop.board.state import Battlefield, Model
from tabletop.rules import events as E
from tabletop.rules.dice import Dice
from tabletop.rules.engine import counts
from tabletop.rules.engine.driver import log_items, run
from tabletop.rules.engine.machine import (
    END,
    Machine,
    PhaseState,
    Row,
    Transition,
    goto,
    wait,
)
from tabletop.rules.engine.pending import Chance, Drawn, Question, detail_of, outcome_of, uniform
from tabletop.rules.events import Event, EventLog
from tabletop.rules.rank_and_flank import clauses as C
from tabletop.rules.rank_and_flank import profiles as P
from tabletop.rules.rank_and_flank import wording
from tabletop.rules.rank_and_flank.breaks import break_base, roll_break, with_difference
from tabletop.rules.rank_and_flank.close_up import close_up_all
from tabletop.rules.rank_and_flank.flee import flee, surrounded_for_flight, turn_to_face_all
from tabletop.rules.rank_and_flank.rolls import p_wound, strike
from tabletop.rules.rank_and_flank.round import (
    Blows,
    RoundContext,
    RoundOutcome,
    group_facts,
    plan_round,
    roll_groups,
    round_steps,
    unit_casualties,
)
from tabletop.rules.rank_and_flank.score import result_of, standing_items, total_score
from tabletop.rules.rank_and_flank.steps import CLOSE, OPEN, in_stage
from tabletop.rules.rank_and_flank.tables import forget_geometry, geometry
from tabletop.rules.rank_and_flank.wounds import allocate
from tabletop.rules.registry import Resolution

__all__ = ["Memo", "Plan", "fight", "geometry", "key", "phase", "round_machine", "rows"]

Items = tuple  # of Event | StepMark


# ------------------------------------------------------------------ the frozen memo
@dataclass(frozen=True)
class RollGroup:
    """One roll group of the planned round (``round.roll_groups``): ``n`` attacks of one
    unit at one target with one profile, each wounding with probability ``p``;
    ``facts`` is the ``blows`` event's fields known before the dice."""

    unit: str
    target: str
    target_model: str | None
    n: int
    p: Fraction
    lethal: bool
    hit: Any
    save: Any
    player: str
    defender: str
    label: str
    rule: str
    facts: tuple[tuple[str, Any], ...] = field(compare=False)

    def chance(self) -> Chance:
        """The group's chance: how many of its ``n`` attacks wound."""
        return Chance(f"wounds: {self.label}", self.rule, counts.successes(self.n, self.p),
                      player=self.player, draw=self.draw)

    def draw(self, dice: Dice) -> Drawn:
        """Roll the group's attack rolls and damage saves; the failed saves, with the hits."""
        hits, unsaved = strike(dice, self.n, self.hit, self.save, attacker=self.player,
                               defender=self.defender, label=self.label)
        return Drawn(unsaved, hits)


@dataclass(frozen=True)
class Plan:
    """The round planned on the table after the ``OPEN`` rows: ``ctx`` (a
    ``round.RoundContext``, never changed once planned), its roll groups, the
    challenge's duellists (``pair``, their ``fighters``), the step heading and focus.
    ``cache`` holds what is worked out from the plan and a memo's tally (pure)."""

    ctx: RoundContext = field(compare=False)
    groups: tuple[RollGroup, ...]
    pair: tuple[str, str] | None
    fighters: tuple[Any, Any] | None = field(compare=False)
    head: str = ""
    cache: dict = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True)
class Memo:
    """The phase's own bookkeeping (frozen).

    ``groups`` the engagements, ``index`` the one being fought (0-based),
    ``units`` its units this round; ``answers``/``emitted`` the answers given to
    the asking row and the events it has passed on; ``plan`` the planned round;
    ``k`` the counter of the row at work (roll group, duellist, unit tested);
    the tally: wounds to each unit's pool (``pools``), straight to a model
    (``duel``), caused by each unit (``caused``), inflicted by each duellist
    (``inflicted``), all as sorted ``(id, n)`` pairs; ``verdict`` what the tally
    gave (``_verdict``: winner, the break tests to take, the challenge's result);
    ``broken`` the units that failed a break test; ``odds`` when the rows run for
    the odds (no model moves; the tally is dropped once the verdict is known, so
    rounds that reach the same verdict and the same ``lost`` are weighed once);
    ``lost`` (odds only) the models each unit of the round lost to its blows, as
    sorted ``(unit, n)`` pairs, kept when the tally is dropped.
    """

    groups: tuple[tuple[str, ...], ...] = ()
    index: int = 0
    units: tuple[str, ...] = ()
    answers: tuple[Any, ...] = ()
    emitted: int = 0
    plan: Plan | None = None
    k: int = 0
    pools: tuple[tuple[str, int], ...] = ()
    duel: tuple[tuple[str, int], ...] = ()
    caused: tuple[tuple[str, int], ...] = ()
    inflicted: tuple[tuple[str, int], ...] = ()
    broken: tuple[str, ...] = ()
    verdict: tuple | None = None
    facts: tuple[tuple[str, Any], ...] | None = None
    odds: bool = False
    lost: tuple[tuple[str, int], ...] = ()


def _set(m: Memo, **changes: Any) -> Memo:
    """``dataclasses.replace`` for the memo, without its per-call reflection (the odds walk
    makes tens of thousands of memos)."""
    new = object.__new__(Memo)
    new.__dict__.update(m.__dict__)
    new.__dict__.update(changes)
    return new


def _add(pairs: tuple[tuple[str, int], ...], who: str, n: int) -> tuple[tuple[str, int], ...]:
    d = dict(pairs)
    d[who] = d.get(who, 0) + n
    return tuple(sorted(d.items()))


def _fresh_round(m: Memo, units: tuple[str, ...]) -> Memo:
    return _set(m, units=units, answers=(), emitted=0, plan=None, k=0, pools=(), duel=(),
                   caused=(), inflicted=(), broken=(), verdict=None, facts=None, lost=())


def key(state: PhaseState) -> Any:
    """What decides the rest of a round from ``state`` (the odds walk merges on it): the row,
    the tally, who broke, and the battlefield's models (place, facing, wounds, statuses)."""
    m = state.memo
    bf = state.battlefield
    models = tuple((x.id, x.x, x.y, x.facing_deg, x.wounds_lost, tuple(x.status))
                   for u in bf.units for x in u.models) if not m.odds else ()
    return (state.cursor, m.index, m.k, len(m.answers), m.pools, m.duel, m.caused, m.inflicted,
            m.verdict, m.broken, state.used, models, m.lost)


# ------------------------------------------------------------------ asking through old helpers
class _NeedAnswer(Exception):
    def __init__(self, question: Question):
        super().__init__(question.choice)
        self.question = question


class _Replay:
    """Stands in for ``rules.decisions.Decisions`` while a helper runs inside a row: the answers
    given so far in order, then the next question is raised (``_NeedAnswer``)."""

    def __init__(self, answers: tuple[Any, ...]):
        self.answers = answers
        self.k = 0

    def choose(self, player: str, choice: str, options, default: Any = None, rule: str = "",
               context: dict | None = None, why_not: Callable[[Any], str] | None = None,
               search=None) -> Any:
        if self.k < len(self.answers):
            self.k += 1
            return self.answers[self.k - 1]
        opts = tuple(options)
        dflt = default if default is not None else opts[0]
        raise _NeedAnswer(Question(player, choice, opts, dflt, rule,
                                   tuple((context or {}).items()), why_not))


def _asking(st: PhaseState, fn: Callable[[Any, EventLog], Any],
            done: Callable[[PhaseState, Any, Items], Transition]) -> Transition:
    """Run ``fn(decisions, log)`` with the answers given so far; wait on its next question,
    or hand its result and its events not yet passed on to ``done``."""
    m = st.memo
    log = EventLog()
    try:
        result = fn(_Replay(m.answers), log)
    except _NeedAnswer as need:
        items = list(log_items(log))
        return wait(st, need.question, tuple(items[m.emitted:]), memo=_set(m, emitted=len(items)))
    items = list(log_items(log))
    return done(replace(st, memo=_set(m, answers=(), emitted=0)), result, tuple(items[m.emitted:]))


def _answered(st: PhaseState, answer: Any) -> Transition:
    """A question of an asking row answered: run the row again with it."""
    return goto(st, st.cursor, memo=_set(st.memo, answers=st.memo.answers + (answer,)))


def _logged(fn: Callable[[EventLog], Any]) -> tuple[Any, Items]:
    """Run an event-emitting helper with a local log: its result and its events and steps."""
    log = EventLog()
    result = fn(log)
    return result, tuple(list(log_items(log)))


# ------------------------------------------------------------------ what the tally gives
def _duel_result(plan: Plan, inflicted: tuple[tuple[str, int], ...]):
    """The challenge's ``DuelResult`` from the wounds each duellist inflicted (cached)."""
    got = plan.cache.get(("duel", inflicted))
    if got is None:
        from tabletop.rules.challenges.character_duel import DuelBlows, duel_result
        assert plan.fighters is not None   # read only when the round has a challenge
        fa, fb = plan.fighters
        n = dict(inflicted)
        got = duel_result(fa, fb, {f.model_id: DuelBlows(attacks=f.attacks, inflicted=n[f.model_id])
                                   for f in (fa, fb)})
        plan.cache[("duel", inflicted)] = got
    return got


def _challenge_score(plan: Plan, res) -> list[dict]:
    """The duellists' combat score items (¶6), as ``ctx.score_extra`` items."""
    from tabletop.rules.challenges.character_duel import RULE_OVERKILL
    out = []
    state = plan.ctx.state
    assert plan.pair is not None   # read only when the round has a challenge
    for att in plan.pair:
        player = state.owner(att)
        score = res.score.get(player, 0)
        if score:
            n = res.blows[att].inflicted
            why = f"{n} wound{'s' if n != 1 else ''} inflicted"
            if res.overkill_inflicted.get(player):
                why += (f", {res.overkill_inflicted[player]} beyond what was needed: "
                        f"+{res.overkill[player]} counted (at most +3)")
            out.append({"player": player, "unit": state.model(att).unit_id, "source": "challenge",
                        "score": score, "rule": RULE_OVERKILL, "why": why})
    return out


def _unit_after(plan: Plan, u: str, pool: int, duel: tuple[tuple[str, int], ...]):
    """One unit's casualties, living models, steps up and formation after them (cached: they
    read only its own pool and the wounds struck at its models)."""
    k = ("unit", u, pool, duel)
    got = plan.cache.get(k)
    if got is None:
        ctx = plan.ctx
        cas, alive = unit_casualties(ctx, u, pool, dict(duel))
        steps = ctx.forms[u].step_up(cas.removed, alive)
        got = (cas, frozenset(alive), steps, ctx.forms[u].after_steps(steps))
        plan.cache[k] = got
    return got


def _outcome(m: Memo) -> RoundOutcome:
    """The round's casualties, steps up, formations and combat score from the memo's tally
    (``round.unit_casualties``, ``score.standing_items``/``total_score``; cached on the plan: a pure function
    of the tally)."""
    plan = m.plan
    assert plan is not None   # the OPEN rows planned the round
    tally = (m.pools, m.duel, m.caused, m.inflicted)
    got = plan.cache.get(tally)
    if got is not None:
        return got
    ctx = plan.ctx
    blows = Blows(dict(m.pools), dict(m.duel), dict(m.caused))
    extra = list(ctx.score_extra)
    if plan.pair and m.inflicted:
        k: tuple[Any, ...] = ("challenge score", m.inflicted)
        if k not in plan.cache:
            plan.cache[k] = _challenge_score(plan, _duel_result(plan, m.inflicted))
        extra += [dict(it) for it in plan.cache[k]]
    cas, alive, steps, forms_after = {}, {}, {}, {}
    for u in ctx.units:
        k = ("placements", u)
        mine = plan.cache.get(k) or plan.cache.setdefault(k, frozenset(ctx.forms[u].placements))
        duel = tuple((x, w) for x, w in m.duel if x in mine)
        cas[u], a, steps[u], forms_after[u] = _unit_after(plan, u, blows.pools.get(u, 0), duel)
        alive[u] = set(a)
    # the score reads the contacts of the round, not those left after the casualties
    standing = {}
    for u in ctx.units:
        k = ("standing", u, frozenset(alive[u]))
        if k not in plan.cache:
            plan.cache[k] = standing_items(ctx.state, ctx.units, u, forms_after[u], ctx.sides,
                                           alive[u])
        standing[u] = plan.cache[k]
    score = total_score(ctx.state, ctx.units, blows.caused, standing, extra)
    out = RoundOutcome(ctx, blows, cas, alive, steps, forms_after, score)
    plan.cache[tally] = out
    return out


def _setup(plan: Plan, out: RoundOutcome, u: str):
    """A losing unit's break test before the dice (``breaks.break_setup``; cached)."""
    return _setup_of(plan, u, frozenset(out.alive[u]), out.forms_after[u], out.score.difference)


def _setup_of(plan: Plan, u: str, alive: frozenset[str], form_after: Any, difference: int):
    k = ("test", u, alive, difference)
    got = plan.cache.get(k)
    if got is None:
        kb = ("test base", u, alive)        # what the living models give, whatever the score
        base = plan.cache.get(kb)
        if base is None:
            base = plan.cache[kb] = break_base(plan.ctx.state, u, form_after, set(alive))
        got = plan.cache[k] = with_difference(base, difference)
    return got


def _verdict(m: Memo) -> tuple:
    """What the rest of the round reads from the tally: ``(winner, tests, challenge)``;
    ``tests`` the losing units that test, in engagement order, as ``(unit, kind, target,
    player)``; ``challenge`` the duel's ``(removed, overkill)`` (or None).  Cached on the
    plan, as ``_outcome``: a pure function of the round's units and the tally.  The odds
    walk (``m.odds``) reads only these, so it adds up the score's points
    (``_odds_verdict``) without making the round's itemised outcome."""
    plan = m.plan
    assert plan is not None   # the OPEN rows planned the round
    vk = ("verdict", m.units, m.pools, m.duel, m.caused, m.inflicted)
    got = plan.cache.get(vk)
    if got is None:
        got = plan.cache[vk] = _odds_verdict(m, plan) if m.odds else _verdict_of(m, plan)
    return got


def _verdict_of(m: Memo, plan: Plan) -> tuple:
    out = _outcome(m)
    tests: tuple[tuple[str, Any, Any, Any], ...] = ()
    if out.score.winner is not None:
        state = plan.ctx.state
        tests = tuple((u, r.kind, r.target, r.player) for u in m.units
                      if state.unit(u).player in out.score.losers and out.alive[u]
                      for r in (_setup(plan, out, u),))
    return out.score.winner, tests, _challenge_verdict(plan, m.inflicted)


def _challenge_verdict(plan: Plan, inflicted: tuple[tuple[str, int], ...]) -> tuple | None:
    if not plan.pair:
        return None
    res = _duel_result(plan, inflicted)
    return (tuple(sorted(res.removed)),
            tuple(sorted((p, n) for p, n in res.overkill.items() if n)))


def _points(items: list[dict]) -> tuple[tuple[str, int], ...]:
    """Score items as ``(player, score)`` pairs, in order (all the verdict reads of them)."""
    return tuple((it["player"], it["score"]) for it in items)


def _odds_verdict(m: Memo, plan: Plan) -> tuple:
    """``_verdict_of`` from the score's points alone: the same totals as ``total_score``
    (each unit's wounds caused, its standing items, then the round's extra items and the
    challenge's; players first in the order of the round's units), the same
    ``score.result_of``, the same break tests."""
    ctx = plan.ctx
    lay = plan.cache.get("odds layout")
    if lay is None:
        state = ctx.state
        lay = plan.cache["odds layout"] = (
            tuple((u, state.unit(u).player, frozenset(ctx.forms[u].placements)) for u in ctx.units),
            _points(list(ctx.score_extra)))
    units, extra = lay
    pools = dict(m.pools)
    caused = dict(m.caused)
    totals = {p: 0 for _, p, _ in units}
    reads: dict[str, tuple[frozenset[str], Any]] = {}
    for u, player, mine in units:
        duel = tuple((x, w) for x, w in m.duel if x in mine) if m.duel else ()
        k = ("odds unit", u, pools.get(u, 0), duel)
        got = plan.cache.get(k)
        if got is None:
            _cas, alive, _steps, form = _unit_after(plan, u, pools.get(u, 0), duel)
            got = plan.cache[k] = (alive, form, _standing_points(plan, u, alive, form))
        reads[u] = got[0], got[1]
        totals[player] += caused.get(u, 0)
        for p, n in got[2]:
            totals[p] = totals.get(p, 0) + n
    for p, n in extra:
        totals[p] = totals.get(p, 0) + n
    if plan.pair and m.inflicted:
        k2 = ("challenge points", m.inflicted)
        got2 = plan.cache.get(k2)
        if got2 is None:
            ck = ("challenge score", m.inflicted)
            if ck not in plan.cache:
                plan.cache[ck] = _challenge_score(plan, _duel_result(plan, m.inflicted))
            got2 = plan.cache[k2] = _points(plan.cache[ck])
        for p, n in got2:
            totals[p] = totals.get(p, 0) + n
    winner, losers, diff = result_of(totals)
    tests: tuple[tuple[str, Any, Any, Any], ...] = ()
    if winner is not None:
        owner = {u: p for u, p, _ in units}
        tests = tuple((u, r.kind, r.target, r.player) for u in m.units
                      if (owner[u] if u in owner else ctx.state.unit(u).player) in losers
                      and reads[u][0]
                      for r in (_setup_of(plan, u, reads[u][0], reads[u][1], diff),))
    return winner, tests, _challenge_verdict(plan, m.inflicted)


def _odds_lost(m: Memo) -> tuple[tuple[str, int], ...]:
    """The models each unit of the round loses to the tally's blows (its pool and the wounds
    struck at its models, ``_unit_after``), as sorted ``(unit, n)`` pairs: what the odds
    read for each unit's models lost (cached on the plan with the tally)."""
    plan = m.plan
    assert plan is not None   # the OPEN rows planned the round
    k = ("odds lost", m.units, m.pools, m.duel)
    got = plan.cache.get(k)
    if got is None:
        ctx = plan.ctx
        pools = dict(m.pools)
        out = []
        for u in ctx.units:
            mine = plan.cache.get(("placements", u)) or plan.cache.setdefault(
                ("placements", u), frozenset(ctx.forms[u].placements))
            duel = tuple((x, w) for x, w in m.duel if x in mine) if m.duel else ()
            _cas, alive, _steps, _form = _unit_after(plan, u, pools.get(u, 0), duel)
            out.append((u, len(ctx.state.unit(u).models) - len(alive)))
        got = plan.cache[k] = tuple(sorted(out))
    return got


def _standing_points(plan: Plan, u: str, alive: frozenset[str], form: Any
                     ) -> tuple[tuple[str, int], ...]:
    """Unit ``u``'s standing items (``standing_items``, kept on the plan as ``_outcome`` keeps
    them) as points."""
    ctx = plan.ctx
    sk = ("standing", u, alive)
    if sk not in plan.cache:
        plan.cache[sk] = standing_items(ctx.state, ctx.units, u, form, ctx.sides, set(alive))
    return _points(plan.cache[sk])


@lru_cache(maxsize=256)
def _bare_test(u: str, kind: str, target: int, player: str) -> Chance:
    """A losing unit's test for the odds (no dice to draw): made once per unit and target."""
    if kind == "crumble":
        return Chance(f"crumble: {u}", C.CRUMBLE, uniform((1, 2, 3)), player=player)
    return Chance(f"break test: {u}", C.BREAK_TESTS, _break_dist(target), player=player)


@lru_cache(maxsize=64)
def _break_dist(target: int) -> tuple:
    """Pass (True) or fail of 2D6 against ``target`` (2D6 <= target passes)."""
    return counts.at_most(counts.dice_sum(2), target)


# ------------------------------------------------------------------ rows
def _start(st: PhaseState) -> Transition:
    state = st.battlefield
    groups = tuple(tuple(g) for g in geometry(state).engagements)
    P.check_profiles(state, [u for g in groups for u in g])
    memo = _set(st.memo, groups=groups, index=0)
    if not groups:
        def none(log):
            log.emit("no_engagements", C.ENGAGEMENTS, text="no unit is in base contact with an enemy")
            log.step("No engagements: no unit is in base contact with an enemy", C.ENGAGEMENTS, state)
        return goto(st, END, _logged(none)[1], memo=memo)
    ev = E.Engagements(rule=C.ENGAGEMENTS, **{"engagements": [list(g) for g in groups]})
    return goto(st, "engagement", (ev,), memo=memo)


def _engagement(st: PhaseState) -> Transition:
    m, state = st.memo, st.battlefield
    while m.index < len(m.groups):
        units = tuple(u for u in m.groups[m.index] if state.has_unit(u))
        if len({state.unit(u).player for u in units}) >= 2:
            return goto(st, "open", memo=_fresh_round(m, units))
        m = _set(m, index=m.index + 1)
    return goto(st, END, memo=m)


def _open(nxt: str) -> Callable[[PhaseState], Transition]:
    def enter(st: PhaseState) -> Transition:
        m = st.memo
        steps = round_steps(st.battlefield.rules)
        geo = geometry(st.battlefield)
        units = tuple(u for u in m.units if geo.unit_models(u))

        def fn(decisions, log):
            state = st.battlefield
            for row in in_stage(steps, OPEN):     # e.g. a character challenge (may move models)
                state = row.run(state, list(units), None, decisions, log)
            return state, _challenge_facts(log.events)

        def done(st2: PhaseState, result, items) -> Transition:
            state, facts = result
            return goto(st2, nxt, items, battlefield=state,
                        memo=_set(st2.memo, units=units, facts=facts))
        return _asking(st, fn, done)
    return enter


def _plan(nxt: str) -> Callable[[PhaseState], Transition]:
    def enter(st: PhaseState) -> Transition:
        m, state = st.memo, st.battlefield
        geo = geometry(state)
        units = list(m.units)

        def fn(decisions, log):
            return plan_round(state, geo, units, decisions, None, None, round_steps(state.rules))

        def done(st2: PhaseState, ctx: RoundContext, items) -> Transition:
            m2 = st2.memo
            head = (f"Engagement {m2.index + 1} of {len(m2.groups)} ({' v '.join(units)})")
            groups = []
            for gk, members in roll_groups(ctx).items():
                unit, target, target_model, hit, save, lethal = gk
                f = group_facts(ctx, gk, members)
                groups.append(RollGroup(unit, target, target_model, f["dice"], p_wound(hit, save),
                                        lethal, hit, save, f["player"], f["defender"], f["label"],
                                        f["rule"], tuple(f.items())))
            pair = ctx.extra.get("challenge")
            fighters = None
            if pair:
                from tabletop.rules.challenges.character_duel import fighters as duel_fighters
                fighters = duel_fighters(ctx.state, pair[0], pair[1], ctx.first_round)
            plan = Plan(ctx, tuple(groups), tuple(pair) if pair else None, fighters, head)
            more: Items = ()
            if not m2.odds:
                more = _logged(lambda log: _announce(plan, state, geo, m2, log))[1]
            return goto(st2, nxt, items + more, memo=_set(m2, plan=plan, k=0))
        return _asking(st, fn, done)
    return enter


def _summary(ctx: RoundContext, unit: str) -> dict:
    rows: dict[str, dict[str, int]] = {}
    for a in ctx.attacks:
        if a.unit == unit and a.model not in ctx.excluded:
            k = rows.setdefault(a.kind, {"models": 0, "dice": 0})
            k["models"] += 1
            k["dice"] += a.dice
    return rows


def _announce(plan: Plan, state: Battlefield, geo, m: Memo, log: EventLog) -> None:
    """The round's plan in events and its "who attacks" step."""
    ctx, units = plan.ctx, list(m.units)
    log.emit("engagement", C.ENGAGEMENTS, index=m.index + 1, of=len(m.groups), units=units,
             first_round=ctx.first_round)
    for u in units:
        s, f = ctx.sides[u], ctx.forms[u]
        log.emit("unit_geometry", C.WHO_ATTACKS, unit=u, files=f.files(), ranks=f.rank_count(),
                 facing=round(f.facing_deg, 3), sides=dict(s.enemy_sides), disrupted=s.disrupted,
                 disrupted_reasons=s.disrupted_reasons, surrounded=s.surrounded)
        log.emit("attackers", C.WHO_ATTACKS, unit=u, by_kind=_summary(ctx, u),
                 attacks=[{"model": a.model, "kind": a.kind, "dice": a.dice,
                           "target": a.target_model or a.target_unit, "rule": a.rule, "side": a.side}
                          for a in ctx.attacks if a.unit == u and a.model not in ctx.excluded])
    for a, b in ctx.duels:
        log.emit("duel", C.DUEL, commanders=[a, b])
    for note in ctx.notes:
        log.emit("note", C.WHO_ATTACKS, text=note)
    log.step(f"{plan.head}: who attacks", C.WHO_ATTACKS, state)


def _strike(nxt: str) -> Row:
    def enter(st: PhaseState) -> Transition:
        m = st.memo
        groups = m.plan.groups
        if m.k >= len(groups):
            return goto(st, nxt, memo=_set(m, k=0))
        g = groups[m.k]
        if g.n <= 0:
            return goto(st, "strike", memo=_set(m, k=m.k + 1))
        got = m.plan.cache.get(("group chance", m.k))      # the same for every state of the round
        if got is None:
            got = m.plan.cache[("group chance", m.k)] = g.chance()
        return wait(st, got)

    def resume(st: PhaseState, answer: Any) -> Transition:
        m = st.memo
        g = m.plan.groups[m.k]
        unsaved = outcome_of(answer)
        wounds = unsaved * (2 if g.lethal else 1)
        if g.target_model is not None:
            memo = _set(m, duel=_add(m.duel, g.target_model, wounds),
                        caused=_add(m.caused, g.unit, wounds), k=m.k + 1)
        else:
            memo = _set(m, pools=_add(m.pools, g.target, wounds),
                        caused=_add(m.caused, g.unit, wounds), k=m.k + 1)
        events: Items = ()
        if not m.odds:
            f = {k: v for k, v in g.facts if k not in ("defender", "label", "rule")}
            f.update(hits=detail_of(answer), unsaved=unsaved, wounds=wounds)
            events = (E.Blows(rule=g.rule, **f),)
        return goto(st, "strike", events, memo=memo)
    return Row("strike", "Blows struck simultaneously", C.SIMULTANEOUS, enter, resume)


def _duel() -> Row:
    """The duellists' blows at each other (character-challenge.txt ¶5): one chance each."""
    from tabletop.rules.challenges.character_duel import inflicted_distribution
    from tabletop.rules.challenges.character_duel import strike as duel_strike

    def enter(st: PhaseState) -> Transition:
        m = st.memo
        plan = m.plan
        if not plan.pair or m.k >= 2:
            return goto(st, "duel_result", memo=_set(m, k=0))
        got = plan.cache.get(("duel chance", m.k))
        if got is None:
            att, dfn = plan.fighters if m.k == 0 else plan.fighters[::-1]
            dist = tuple(sorted(inflicted_distribution(att, dfn).items()))

            def draw(dice: Dice, att=att, dfn=dfn) -> Drawn:
                bl = duel_strike(dice, att, dfn)
                return Drawn(bl.inflicted, bl)
            got = Chance(f"challenge: {att.model_id} strikes {dfn.model_id}",
                         "character-challenge.txt ¶5", dist, player=att.player, draw=draw)
            plan.cache[("duel chance", m.k)] = got
        return wait(st, got)

    def resume(st: PhaseState, answer: Any) -> Transition:
        m = st.memo
        att = m.plan.fighters[m.k]
        return goto(st, "duel", memo=_set(m, inflicted=_add(m.inflicted, att.model_id,
                                                               outcome_of(answer)), k=m.k + 1))
    return Row("duel", "Challenge: the duellists strike each other", "character-challenge.txt ¶5",
               enter, resume)


def _duel_result_row(nxt: str) -> Row:
    def enter(st: PhaseState) -> Transition:
        m = st.memo
        plan = m.plan
        if not plan.pair:
            return goto(st, nxt)
        res = _duel_result(plan, m.inflicted)
        memo = m
        for victim in plan.pair:
            att = plan.pair[1] if victim == plan.pair[0] else plan.pair[0]
            memo = _set(memo, duel=_add(memo.duel, victim, res.blows[att].inflicted))
        if m.odds:
            return goto(st, nxt, memo=memo)
        from tabletop.rules.challenges.character import result_fields
        from tabletop.rules.challenges.character_duel import RULE_OVERKILL
        fa, fb = plan.fighters
        pair = plan.pair
        base = st.battlefield

        def emit(log):
            log.emit("challenge_result", RULE_OVERKILL, **result_fields(fa, fb, res))
            log.step(f"Challenge: {pair[0]} and {pair[1]} strike each other", RULE_OVERKILL, base)
        return goto(st, nxt, _logged(emit)[1], memo=memo)
    return Row("duel_result", "Challenge result", "character-challenge.txt ¶6", enter)


def _apply_casualties(state: Battlefield, cas: dict, log: EventLog, rule: str) -> Battlefield:
    removed: list[str] = []
    wounded = []
    for u, c in cas.items():
        for mid in c.removed:
            log.emit("removed", rule, model=mid, unit=u)
            removed.append(mid)
        for mid, w in c.wounded.items():
            if mid not in c.removed:
                x = state.model(mid)
                left = P.model_stat(x, "Wounds") - w
                log.emit("wounded", rule, model=mid, unit=u, damage=w - x.wounds_lost,
                         wounds_lost=w, wounds_left=left)
                wounded.append(replace(x, wounds_lost=w))
        if c.carried:
            log.emit("carried_over", C.CARRY_OVER, unit=u, wounds=c.carried)
    state = state.with_models(wounded)
    return state.without_models(removed)


def _step_up(state: Battlefield, before: Battlefield, steps: dict[str, list[tuple[str, str]]],
             log: EventLog) -> Battlefield:
    """Move each model that steps up into its dead model's place (``UnitFormation.step_up``);
    ``before`` is the state the dead models stood in."""
    moved: dict[str, Model] = {}
    for u, pairs in steps.items():
        for mover, dead in pairs:
            d = before.model(dead)
            x = moved.get(mover) or state.model(mover)
            moved[mover] = x.moved_to(d.x, d.y, d.facing_deg)
            log.emit("stepped_up", C.WOUNDS, unit=u, model=mover, into=dead, at=[d.x, d.y],
                     text=f"{mover} steps into {dead}'s place")
    return state.with_models(moved.values())


def _casualties(st: PhaseState) -> Transition:
    """Row ``casualties``: the pools applied after every blow, steps up, closing up, combat score."""
    m = st.memo
    if m.odds:      # the tally has said all it says: drop it, so equal verdicts merge
        return goto(st, "break", memo=_set(m, k=0, verdict=_verdict(m), lost=_odds_lost(m),
                                              pools=(), duel=(), caused=(), inflicted=()))
    out = _outcome(m)
    plan, state, units = m.plan, st.battlefield, list(m.units)
    ctx, blows, cas, score = plan.ctx, out.blows, out.casualties, out.score

    def apply(log: EventLog) -> Battlefield:
        s = state
        doomed = [x for c in cas.values() for x in c.removed]
        caused = ", ".join(f"{u} {blows.caused.get(u, 0)}" for u in units)
        log.emit("wounds_pooled", C.SIMULTANEOUS,
                 units={u: {"pool": blows.pools.get(u, 0), "removed": list(cas[u].removed),
                            "carried": cas[u].carried} for u in units})
        log.step(f"{plan.head}: blows struck simultaneously (wounds caused: {caused})",
                 C.SIMULTANEOUS, s)
        s = _apply_casualties(s, cas, log, C.WOUNDS)
        s = _step_up(s, ctx.state, out.steps, log)
        s, _closed = close_up_all(s, units, out.sides_at_blows, set(doomed), log)
        log.emit("combat_score", C.COMBAT_SCORE, scores=dict(score.totals),
                 breakdown=score.breakdown, winner=score.winner, difference=score.difference,
                 **({} if score.winner else {"result": "tie: nobody tests"}))
        log.step(f"{plan.head}: combat score "
                 f"{' - '.join(f'{p} {t}' for p, t in score.totals.items())}, "
                 f"{wording.verdict(score.winner, score.difference)}",
                 C.COMBAT_SCORE, s)
        return s

    after, items = _logged(apply)
    return goto(st, "break", items, battlefield=after, memo=_set(m, k=0, verdict=_verdict(m)))


def _break(nxt: str) -> Row:
    def enter(st: PhaseState) -> Transition:
        m = st.memo
        tests = m.verdict[1]
        if m.k >= len(tests):
            return goto(st, nxt, memo=_set(m, k=0))
        u, kind, target, player = tests[m.k]
        if m.odds:
            draw = None
        else:
            r = _setup(m.plan, _outcome(m), u)
            draw = (lambda dice: Drawn((x := roll_break(r, dice)).wounds, x)) if kind == "crumble" \
                else (lambda dice: Drawn((x := roll_break(r, dice)).passed, x))
        if draw is None:
            return wait(st, _bare_test(u, kind, target, player))
        if kind == "crumble":
            return wait(st, Chance(f"crumble: {u}", C.CRUMBLE, uniform((1, 2, 3)), player=player,
                                   draw=draw))
        return wait(st, Chance(f"break test: {u}", C.BREAK_TESTS, _break_dist(target),
                               player=player, draw=draw))

    def resume(st: PhaseState, answer: Any) -> Transition:
        m = st.memo
        u, kind, _target, _player = m.verdict[1][m.k]
        v = outcome_of(answer)
        memo = _set(m, k=m.k + 1)
        if kind == "test" and not v:
            memo = _set(memo, broken=tuple(sorted(memo.broken + (u,))))
        if m.odds:
            return goto(st, "break", memo=memo)
        r = detail_of(answer)
        if r is None:       # answered without the dice (no faces to show)
            r0 = _setup(m.plan, _outcome(m), u)
            r = replace(r0, wounds=v) if kind == "crumble" else replace(r0, passed=v)
        after, items = _logged(lambda log: _after_test(st.battlefield, m, u, r, log))
        return goto(st, "break", items, battlefield=after, memo=memo)
    return Row("break", "Break tests", C.BREAK_TESTS, enter, resume)


def _after_test(state: Battlefield, m: Memo, u: str, r, log: EventLog) -> Battlefield:
    """A losing unit's test reported: its crumble's casualties, or fleeing (or destruction)."""
    out = _outcome(m)
    ev = r.to_event()
    log.emit("break_test", C.CRUMBLE if r.kind == "crumble" else C.BREAK_TESTS, **ev)
    if r.kind == "crumble":
        # the state after this round's casualties: wounds already lost this round
        # stay lost and the crumble's D3 comes on top of them
        c = allocate(P.indexed(state), out.forms_after[u], out.alive[u], r.wounds)
        state = _apply_casualties(state, {u: c}, log, C.CRUMBLE)
        title = f"{u} crumbles: D3 = {r.wounds} wound{'s' if r.wounds != 1 else ''}"
        if not state.has_unit(u):
            log.emit("destroyed", C.CRUMBLE, unit=u, player=r.player,
                     reason="crumbled away", models=c.removed)
    elif r.passed:
        title = f"{u} break test: {r.total} <= {r.target}: holds"
    else:
        # the enemies it was fighting and whether it was surrounded: the contacts
        # when the blows were struck
        fought = out.sides_at_blows[u]
        away = [e for e in fought.enemy_units if state.has_unit(e)] or fought.enemy_units
        state, rec = flee(state, u, away, surrounded_for_flight(fought), log, fought.contacts)
        what = "flees" if rec["outcome"] == "fled" else f"is destroyed ({rec['reason']})"
        title = f"{u} break test: {r.total} > {r.target}: breaks and {what}"
    log.step(title, C.CRUMBLE if r.kind == "crumble" else C.BREAK_TESTS, state)
    return state


def _turn(st: PhaseState) -> Transition:
    """Row ``turn``: turning to face, the ``CLOSE`` rows, the end of the charge's first round."""
    m = st.memo
    units = list(m.units)

    def close(log: EventLog) -> Battlefield:
        state = st.battlefield
        state, turns = turn_to_face_all(state, units, log)
        if turns:
            log.step(f"{m.plan.head}: " + "; ".join(
                         f"{t['unit']} turns to face {t['enemy']}" if t.get("turned", True) else
                         f"{t['unit']} cannot turn to face {t['enemy']} ({t['reason']})"
                         for t in turns),
                     C.TURN_TO_FACE, state)
        for row in in_stage(m.plan.ctx.steps, CLOSE):    # e.g. a character challenge goes on or ends
            state = row.run(state, units, log)
        charged = [u for u in units if state.has_unit(u) and state.unit(u).charged]
        if charged:
            for u in charged:
                state = state.with_unit(replace(state.unit(u), charged=False))
            log.emit("charge_over", C.CHARGE_BONUSES, units=charged,
                     text="charge bonuses and first-round effects end after this round")
        return state

    after, items = _logged(close)
    return goto(st, "engagement", items, battlefield=after,
                memo=_set(_fresh_round(m, ()), index=m.index + 1))


def _challenge_facts(events: list[Event]) -> tuple[tuple[str, Any], ...] | None:
    """Who fights the round's character challenge, read from the events the ``OPEN`` rows
    emitted (``challenge_issued``/``_accepted``/``_refused``/``_continues``); None when no
    challenge was issued or goes on.  A frozen ``((key, value), ...)``."""
    ev: dict[str, dict] = {}
    for e in events:
        ev.setdefault(e.type, e.data)
    if "challenge_continues" in ev:
        a, b = ev["challenge_continues"]["models"]
        d = {"challenger": a, "challenged": b, "issued_by": None, "disgraced": None,
             "continuing": True, "forced": False}
    elif "challenge_issued" not in ev:
        return None
    else:
        acc, ref = ev.get("challenge_accepted"), ev.get("challenge_refused")
        d = {"challenger": ev["challenge_issued"]["challenger"],
             "challenged": acc["challenged"] if acc else None,
             "issued_by": ev["challenge_issued"]["player"],
             "disgraced": ref["disgraced"] if ref else None,
             "continuing": False, "forced": bool(acc and acc.get("forced"))}
    return tuple(d.items())


# ------------------------------------------------------------------ the tables
def rows(rules, odds: bool = False) -> list[Row]:
    """The phase's rows for a map whose ``[rules]`` are ``rules`` (module docstring): the
    duel rows only with ``challenges = "character"``; with ``odds`` the rows of one round from
    ``open`` to ``break`` (the phase ends after the break tests)."""
    challenge = rules.challenges == "character"
    after_strike = "duel" if challenge else "casualties"
    table = [
        Row("open", "Before the round", C.ENGAGEMENTS, _open("plan"), _answered),
        Row("plan", "Who attacks", C.WHO_ATTACKS, _plan("strike"), _answered),
        _strike(after_strike),
    ]
    if challenge:
        table += [_duel(), _duel_result_row("casualties")]
    table += [Row("casualties", "Casualties and combat score", C.COMBAT_SCORE, _casualties),
              _break(END if odds else "turn")]
    if not odds:
        table = [Row("start", "Engagements", C.ENGAGEMENTS, _start),
                 Row("engagement", "Next engagement", C.ENGAGEMENTS, _engagement)] + table
        table.append(Row("turn", "Turn to face", C.TURN_TO_FACE, _turn))
    return table


def phase(battlefield: Battlefield) -> tuple[Machine, PhaseState]:
    """The map's combat phase as a machine and its first state (the window and ``fight`` drive it)."""
    forget_geometry()
    machine = Machine(rows(battlefield.rules), "start")
    return machine, machine.begin(battlefield, Memo())


def round_machine(battlefield: Battlefield, units) -> tuple[Machine, PhaseState]:
    """One engagement's round, from its ``OPEN`` rows to its break tests, for the odds."""
    machine = Machine(rows(battlefield.rules, odds=True), "open")
    memo = Memo(groups=(tuple(units),), units=tuple(units), odds=True)
    return machine, machine.begin(battlefield, memo)


def fight(state: Battlefield, dice: Dice, decisions, log: EventLog) -> Resolution:
    """Resolve the map's combat phase: one round of every engagement, one after the other
    (``phase`` driven by ``engine.driver.run``; questions answered by ``decisions``: the map's
    ``[[decisions]]``, then its policy or the person at the window).

    Raises
    ------
    MapValidationError
        When a unit in an engagement lacks a stat the rules read (one line each).
    """
    machine, start = phase(state)

    def ask(q: Question) -> Any:
        return decisions.choose(q.player, q.choice, list(q.options), default=q.default,
                                rule=q.rule, context=dict(q.context), why_not=q.why_not)

    done = run(machine, replace(start, used=frozenset(decisions.used)), dice=dice,
               scripted=decisions.scripted, policy=ask, log=log, on_scripted=decisions.took)
    return Resolution(done.state.battlefield, log,
                      extra={"engagements": [list(g) for g in done.state.memo.groups]})
