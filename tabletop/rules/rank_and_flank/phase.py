"""The rank-and-flank combat phase, engagement after engagement (rank-and-flank-combat.txt).

``fight(state, dice, decisions, log) -> Resolution`` resolves one round of
every engagement (``Geometry.engagements``: the connected groups of units in
base contact), one after the other, in map order of their first unit:
attacks (simultaneous), casualties, units closing back into base contact
where the casualties parted them (``close_up.py``), combat score and break
tests read from the contacts when the blows were struck (each failed unit
flees at once, or is destroyed), turning to face, and the end of the first
round after a charge (``charged`` is cleared).  Events:
``engagement``, ``attackers``, ``roll``, ``blows``, ``removed``, ``wounded``,
``closed_up``, ``close_up_blocked``,
``combat_score``, ``break_test``, ``fled``, ``destroyed``, ``turned_to_face``,
``turn_blocked``,
``charge_over``; steps with draw keys from ``draw.py``.
"""

from __future__ import annotations

from dataclasses import replace

from tabletop.board.state import Battlefield
from tabletop.geometry import Geometry, snapshot
from tabletop.rules.decisions import Decisions
from tabletop.rules.dice import Dice
from tabletop.rules.events import EventLog
from tabletop.rules.rank_and_flank import clauses as C
from tabletop.rules.rank_and_flank import profiles as P
from tabletop.rules.rank_and_flank.breaks import break_test
from tabletop.rules.rank_and_flank.close_up import close_up_all
from tabletop.rules.rank_and_flank.draw import attacks_draw, units_draw
from tabletop.rules.rank_and_flank.flee import flee, surrounded_for_flight, turn_to_face_all
from tabletop.rules.rank_and_flank.round import RoundContext, plan_round, resolve_round, round_steps
from tabletop.rules.rank_and_flank.steps import CLOSE, OPEN, RoundStep, in_stage
from tabletop.rules.rank_and_flank.wounds import allocate
from tabletop.rules.registry import Resolution


def _apply_casualties(state: Battlefield, cas: dict, log: EventLog, rule: str) -> Battlefield:
    removed: list[str] = []
    wounded = []
    for u, c in cas.items():
        for mid in c.removed:
            log.emit("removed", rule, model=mid, unit=u)
            removed.append(mid)
        for mid, w in c.wounded.items():
            if mid not in c.removed:
                m = state.model(mid)
                left = P.model_stat(m, "Wounds") - w
                log.emit("wounded", rule, model=mid, unit=u, damage=w - m.wounds_lost,
                         wounds_lost=w, wounds_left=left)
                wounded.append(replace(m, wounds_lost=w))
        if c.carried:
            log.emit("carried_over", C.CARRY_OVER, unit=u, wounds=c.carried)
    state = state.with_models(wounded)
    return state.without_models(removed)


def _step_up(state: Battlefield, before: Battlefield, steps: dict[str, list[tuple[str, str]]],
             log: EventLog) -> Battlefield:
    """Move each model that steps up into its dead model's place (``UnitFormation.step_up``);
    ``before`` is the state the dead models stood in."""
    moved = {}
    for u, pairs in steps.items():
        for mover, dead in pairs:
            d = before.model(dead)
            m = moved.get(mover) or state.model(mover)
            moved[mover] = m.moved_to(d.x, d.y, d.facing_deg)
            log.emit("stepped_up", C.WOUNDS, unit=u, model=mover, into=dead, at=[d.x, d.y],
                     text=f"{mover} steps into {dead}'s place")
    return state.with_models(moved.values())


def _summary(ctx: RoundContext, unit: str) -> dict:
    rows = {}
    for a in ctx.attacks:
        if a.unit == unit and a.model not in ctx.excluded:
            k = rows.setdefault(a.kind, {"models": 0, "dice": 0})
            k["models"] += 1
            k["dice"] += a.dice
    return rows


def open_round(state: Battlefield, units: list[str], dice: Dice, decisions: Decisions,
               log: EventLog, steps: tuple[RoundStep, ...] | None = None
               ) -> tuple[Battlefield, Geometry, list[str]]:
    """The table a round of one engagement is planned on: ``(state, geometry, units)``.

    ``units`` keeps the engagement's units that still have models; then the
    ``OPEN`` rows of ``steps`` (None: ``round_steps(state.rules)``) run in
    order (with ``challenges = "character"``: issue, accept or refuse,
    character-challenge.txt ¶1-¶5, which may move models), each answering its
    questions from ``decisions`` and emitting into ``log``.  The fight
    (``fight_engagement``) and the odds (``odds.engagement_odds``) both start
    here, so the odds plan the same round the fight plans.
    """
    steps = round_steps(state.rules) if steps is None else steps
    geo = snapshot(state)
    units = [u for u in units if geo.unit_models(u)]
    for row in in_stage(steps, OPEN):     # e.g. a character challenge (may move models)
        after = row.run(state, units, dice, decisions, log)
        if after is not state:
            state, geo = after, snapshot(after)
    return state, geo, units


def fight_engagement(state: Battlefield, units: list[str], dice: Dice, decisions: Decisions,
                     log: EventLog, index: int = 1, of: int = 1) -> Battlefield:
    """One round of one engagement; returns the state after it (see module docstring).

    The round's rows are ``round_steps(state.rules)``, chosen once for the round.
    """
    steps = round_steps(state.rules)
    state, geo, units = open_round(state, units, dice, decisions, log, steps)
    ctx = plan_round(state, geo, units, decisions, log, dice, steps)
    head = f"Engagement {index} of {of} ({' v '.join(units)})"
    log.emit("engagement", C.ENGAGEMENTS, index=index, of=of, units=units,
             first_round=ctx.first_round)
    for u in units:
        s, f = ctx.sides[u], ctx.forms[u]
        log.emit("unit_geometry", C.WHO_ATTACKS, unit=u, files=f.files(), ranks=f.rank_count(),
                 facing=round(f.facing_deg, 3), sides=dict(s.enemy_sides), disrupted=s.disrupted,
                 disrupted_reasons=s.disrupted_reasons, surrounded=s.surrounded)
        log.emit("attackers", C.WHO_ATTACKS, unit=u, by_kind=_summary(ctx, u),
                 attacks=[{"model": a.model, "kind": a.kind, "dice": a.dice,
                           "target": a.target_model or a.target_unit, "rule": a.rule}
                          for a in ctx.attacks if a.unit == u and a.model not in ctx.excluded])
    for a, b in ctx.duels:
        log.emit("duel", C.DUEL, commanders=[a, b])
    for note in ctx.notes:
        log.emit("note", C.WHO_ATTACKS, text=note)
    plan_draw = units_draw(state, geo, units, ctx.sides)
    focus = [[m.x, m.y] for u in units for m in state.unit(u).models]
    live_attacks = [a for a in ctx.attacks if a.model not in ctx.excluded]
    log.step(f"{head}: who attacks", C.WHO_ATTACKS, state, focus=focus, rnf_units=plan_draw,
             rnf_attacks=attacks_draw(live_attacks), rnf_notes=list(ctx.notes))

    out = resolve_round(ctx, dice, break_tests=False)
    blows, cas, alive = out.blows, out.casualties, out.alive
    doomed = [m for c in cas.values() for m in c.removed]
    caused = ", ".join(f"{u} {blows.caused.get(u, 0)}" for u in units)
    log.step(f"{head}: blows struck simultaneously (wounds caused: {caused})", C.SIMULTANEOUS, state,
             focus=focus, rnf_units=plan_draw, rnf_attacks=attacks_draw(live_attacks),
             rnf_casualties=doomed,
             rnf_wounds={u: {"pool": blows.pools.get(u, 0), "removed": len(cas[u].removed),
                             "carried": cas[u].carried} for u in units})

    gone = [[m.x, m.y, m.base.text, m.facing_deg] for m in map(state.model, doomed)]
    state = _apply_casualties(state, cas, log, C.WOUNDS)
    state = _step_up(state, ctx.state, out.steps, log)
    state, _closed = close_up_all(state, units, out.sides_at_blows, set(doomed), log)
    score = out.score
    log.emit("combat_score", C.COMBAT_SCORE, scores=dict(score.totals), breakdown=score.breakdown,
             winner=score.winner, difference=score.difference,
             **({} if score.winner else {"result": "tie: nobody tests"}))
    geo2 = snapshot(state)
    left = [u for u in units if geo2.unit_models(u)]
    score_draw = {"totals": dict(score.totals), "breakdown": score.breakdown,
                  "winner": score.winner, "difference": score.difference}
    verdict = (f"{score.winner} wins by {score.difference}" if score.winner else "a tie: nobody tests")
    log.step(f"{head}: combat score {' - '.join(f'{p} {t}' for p, t in score.totals.items())}, {verdict}",
             C.COMBAT_SCORE, state, focus=focus,
             rnf_units=units_draw(state, geo2, left, {u: out.sides_at_blows[u] for u in left}),
             rnf_score=score_draw, casualties=gone)

    if score.winner is not None:
        for u in units:
            if ctx.state.unit(u).player not in score.losers or not alive[u]:
                continue
            r = break_test(ctx.state, u, out.forms_after[u], alive[u], score.difference, dice)
            ev = r.to_event()
            log.emit("break_test", C.CRUMBLE if r.kind == "crumble" else C.BREAK_TESTS, **ev)
            flee_draw = []
            extra_draw: dict = {}
            if r.kind == "crumble":
                # the state after this round's casualties: wounds already lost this round
                # stay lost and the crumble's D3 comes on top of them
                c = allocate(P.Indexed(state), out.forms_after[u], alive[u], r.wounds)
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
                where = {m.id: [m.x, m.y, m.facing_deg] for m in state.unit(u).models}
                bases = [[m.x, m.y, m.base.text, m.facing_deg] for m in state.unit(u).models]
                state, rec = flee(state, u, away, surrounded_for_flight(fought), log,
                                  fought.contacts)
                flee_draw.append(rec)
                if state.has_unit(u):
                    extra_draw["ghosts"] = where
                else:
                    extra_draw["casualties"] = bases
                what = "flees" if rec["outcome"] == "fled" else f"is destroyed ({rec['reason']})"
                title = f"{u} break test: {r.total} > {r.target}: breaks and {what}"
            geo3 = snapshot(state)
            log.step(title, C.CRUMBLE if r.kind == "crumble" else C.BREAK_TESTS, state,
                     focus=focus, rnf_units=units_draw(state, geo3, [x for x in units if geo3.unit_models(x)]),
                     rnf_score=score_draw, rnf_break=ev, rnf_flee=flee_draw, **extra_draw)

    stood = {m.id: [m.x, m.y, m.facing_deg] for u in units if state.has_unit(u)
             for m in state.unit(u).models}
    state, turns = turn_to_face_all(state, units, log)
    if turns:
        geo4 = snapshot(state)
        turned = {t["unit"] for t in turns if t.get("turned", True)}
        ghosts = {mid: p for mid, p in stood.items() if mid.rsplit("/", 1)[0] in turned}
        log.step(f"{head}: " + "; ".join(
                     f"{t['unit']} turns to face {t['enemy']}" if t.get("turned", True) else
                     f"{t['unit']} cannot turn to face {t['enemy']} ({t['reason']})" for t in turns),
                 C.TURN_TO_FACE, state, focus=focus,
                 rnf_units=units_draw(state, geo4, [x for x in units if geo4.unit_models(x)]),
                 rnf_turn=turns, **({"ghosts": ghosts} if ghosts else {}))
    for row in in_stage(steps, CLOSE):    # e.g. a character challenge goes on or ends
        state = row.run(state, units, log)
    charged = [u for u in units if state.has_unit(u) and state.unit(u).charged]
    if charged:
        for u in charged:
            state = state.with_unit(replace(state.unit(u), charged=False))
        log.emit("charge_over", C.CHARGE_BONUSES, units=charged,
                 text="charge bonuses and first-round effects end after this round")
    return state


def fight(state: Battlefield, dice: Dice, decisions: Decisions, log: EventLog) -> Resolution:
    """Resolve the map's combat phase: one round of every engagement, one after the other.

    Raises
    ------
    MapValidationError
        When a unit in an engagement lacks a stat the rules read (one line each).
    """
    geo = snapshot(state)
    groups = geo.engagements
    P.check_profiles(state, [u for g in groups for u in g])
    if not groups:
        log.emit("no_engagements", C.ENGAGEMENTS, text="no unit is in base contact with an enemy")
        log.step("No engagements: no unit is in base contact with an enemy", C.ENGAGEMENTS, state)
        return Resolution(state, log, extra={"engagements": []})
    log.emit("engagements", C.ENGAGEMENTS, engagements=groups)
    for k, group in enumerate(groups, 1):
        units = [u for u in group if state.has_unit(u)]
        if len({state.unit(u).player for u in units}) < 2:
            continue
        state = fight_engagement(state, units, dice, decisions, log, k, len(groups))
    return Resolution(state, log, extra={"engagements": groups})
