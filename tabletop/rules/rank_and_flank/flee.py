"""Fleeing, destruction and turning to face (rank-and-flank-combat.txt "Fleeing").

A unit that fails its break test flees at once: it turns and runs its full
Move directly away from the enemy it was fighting.  It is destroyed instead
when it was surrounded (enemies on opposite sides), when its Move is less
than 1", or when it runs off the edge of the battlefield.  The winners do
not pursue.  A unit still in contact with a single enemy on its flank or
rear turns to face it.

Named defaults
--------------
AWAY = geometry.ranks.FLEE_AWAY: "opposite the touched sides, weighted by contact length"
    "Directly away" is the opposite of the outward normal of the side the
    enemy touches (front: straight back; right flank: out of the left flank);
    enemies on several sides weigh in by their length of base contact
    (``geometry.ranks.away_direction``).  The contacts are those now (after
    casualties and closing back up), else those when the blows were struck.
FLEE_MOVE = "slowest model's Move"
    The unit's Move is the lowest Move among its models.

Surrounded is not a default: it is read from the contacts when the blows were
struck (``surrounded_for_flight``), as every contact fact of the round is
(rank-and-flank-combat.txt "Engagements"/Attack: casualties come off after
every blow), so killing the models a rear charger touched does not let a
surrounded unit get away.
TURN_CHECKS = 3
    Turning to face checks at most 3 free spots with a fresh snapshot for
    base contact with the enemy on the new front before it gives up.
Fleeing units keep the status ``fleeing`` (written by ``-o``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from tabletop.board.state import Battlefield
from tabletop.geometry.ranks import (
    FLANKS,
    FLEE_AWAY,
    SideContact,
    UnitSides,
    away_direction,
    away_weights,
    flee_move,
    norm_deg,
)
from tabletop.geometry.turns import face_turn, slide_point
from tabletop.rules.events import EventLog
from tabletop.rules.rank_and_flank import clauses as C
from tabletop.rules.rank_and_flank import profiles as P
from tabletop.rules.rank_and_flank.tables import geometry

AWAY = FLEE_AWAY
FLEE_MOVE = "slowest model's Move"
FLEEING = "fleeing"
TURN_CHECKS = 3


def place(state: Battlefield, unit_id: str, positions: dict[str, tuple[float, float, float]],
          facing: float, status: tuple[str, ...] | None = None) -> Battlefield:
    """The unit with its models at ``positions`` {id: (x, y, facing)} and its facing set."""
    unit = state.unit(unit_id)
    models = tuple(m.moved_to(*positions[m.id]) if m.id in positions else m for m in unit.models)
    unit = replace(unit, models=models, facing_deg=norm_deg(facing),
                   status=unit.status if status is None else status)
    return state.with_unit(unit)


def destroy(state: Battlefield, unit_id: str, reason: str, log: EventLog, rule: str,
            flight: dict | None = None) -> Battlefield:
    """Remove the whole unit; event ``destroyed`` {unit, reason, models} and, for a unit that
    could not flee, ``flight`` (the flight it would have made: start, end, direction,
    away_sides, distance, move, away_from)."""
    models = [m.id for m in state.unit(unit_id).models]
    log.emit("destroyed", rule, unit=unit_id, player=state.unit(unit_id).player, reason=reason,
             models=models, **({"flight": flight} if flight is not None else {}))
    return state.without_models(models)


def surrounded_for_flight(sides_at_blows: UnitSides) -> bool:
    """Whether a unit that breaks is destroyed for being surrounded: enemies on opposite
    sides (front and rear, or both flanks) in ``sides_at_blows``, the contacts when the
    blows were struck (rank-and-flank-combat.txt Fleeing, "it was surrounded")."""
    return sides_at_blows.surrounded


def unit_move(state: Battlefield, unit_id: str) -> float:
    """The unit's Move (FLEE_MOVE: its slowest model's), inches."""
    return float(min(P.model_stat(m, "Move") for m in state.unit(unit_id).models))


def flee(state: Battlefield, unit_id: str, away_from: list[str], surrounded: bool,
         log: EventLog, contacts: Iterable[SideContact] = ()) -> tuple[Battlefield, dict]:
    """The unit flees at once (or is destroyed), directly away (AWAY) from
    ``away_from``: from its contacts with them now, else from ``contacts`` (those
    at the start of the round).  Returns the new state and a record of the flight
    ``{unit, from, to, direction, away_sides, distance, outcome, reason}``; the events
    (``fled``, or ``destroyed`` with its ``flight``) carry the same facts."""
    move = unit_move(state, unit_id)
    geo = geometry(state)
    enemies = [e for e in away_from if state.has_unit(e)]
    now = [c for c in geo.sides(unit_id).contacts if c.enemy_unit in away_from]
    used = now or [c for c in contacts if c.enemy_unit in away_from]
    weights = {s: round(w, 4) for s, w in away_weights(geo, unit_id, away_from, used).items()}
    direction = away_direction(geo, unit_id, away_from, used)
    fm = flee_move(geo, unit_id, direction, move)
    record = {"unit": unit_id, "from": list(fm.start), "to": list(fm.end),
              "direction": round(direction, 3), "away_sides": weights,
              "distance": round(fm.distance, 4), "move": move, "away_from": enemies}
    if surrounded:
        reason = "surrounded: enemies on opposite sides"
    elif move < 1.0:
        reason = f"its Move ({move:g}\") is less than 1\""
    elif fm.off_table:
        reason = f"it runs off the edge of the battlefield ({len(fm.off_table)} model{'s' if len(fm.off_table) != 1 else ''} past the edge)"
    else:
        reason = ""
    if reason:
        record.update(outcome="destroyed", reason=reason)
        flight = {"start": list(fm.start), "end": list(fm.end), "direction": round(direction, 3),
                  "away_sides": weights, "distance": round(fm.distance, 4), "move": move,
                  "away_from": enemies}
        return destroy(state, unit_id, reason, log, C.NOT_AWAY, flight), record
    status = tuple(s for s in state.unit(unit_id).status if s != FLEEING) + (FLEEING,)
    state = place(state, unit_id, fm.positions, direction, status)
    log.emit("fled", C.FLEEING, unit=unit_id, player=state.unit(unit_id).player, away_from=enemies,
             direction=direction, away_sides=weights, move=move, distance=fm.distance, extra=fm.extra,
             start=list(fm.start), end=list(fm.end))
    record.update(outcome="fled", reason="")
    return state, record


def turn_to_face_all(state: Battlefield, units: list[str], log: EventLog) -> tuple[Battlefield, list[dict]]:
    """Each unit (not fleeing) in contact with a single enemy on its flank or rear turns to
    face it, staying in base contact with it (``geometry.turns.face_turn``: the new front on
    the line of the touched edge, centred on the contact stretch, else the nearest free spot
    along it that still covers TURN_KEEP of it).  The first spot whose snapshot still shows
    that enemy on the unit's front is kept (event ``turned_to_face``); when no spot does, the
    unit stays as it is (event ``turn_blocked`` with the reason).  Returns the new state and
    records ``{unit, enemy, side, from, to, centre, end, turned, reason}``; the events carry
    the same facts (``centre``: the formation's reference point before, ``end`` after)."""
    records = []
    for u in units:
        if not state.has_unit(u) or FLEEING in state.unit(u).status:
            continue
        geo = geometry(state)
        sides = geo.sides(u)
        if len(sides.enemy_units) != 1:
            continue
        enemy = sides.enemy_units[0]
        side = sides.enemy_sides[enemy]
        if side not in FLANKS and side != "rear":
            continue
        form = geo.formation(u)
        turn = face_turn(geo, u, enemy)
        after_state, why, slide = _first_keeping_contact(state, geo, turn)
        rec = {"unit": u, "enemy": enemy, "side": side, "from": form.facing_deg,
               "to": turn.facing_deg, "centre": list(form.origin)}
        if after_state is None:
            log.emit("turn_blocked", C.TURN_TO_FACE, unit=u, enemy=enemy, side=side,
                     facing=form.facing_deg, reason=why, facing_wanted=turn.facing_deg,
                     centre=list(form.origin),
                     text=f"{u} cannot turn to face {enemy} and stays as it is: {why}")
            records.append(dict(rec, turned=False, reason=why, end=list(form.origin)))
            continue
        state = after_state
        end = geometry(state).formation(u).origin
        lo, hi = turn.stretch
        log.emit("turned_to_face", C.TURN_TO_FACE, unit=u, enemy=enemy, side=side,
                 facing_before=form.facing_deg, facing_after=turn.facing_deg,
                 contact=round(hi - lo, 4), shift=round(slide - turn.centred, 4),
                 front_centre=list(slide_point(turn, geo, slide)), centre=list(form.origin),
                 end=list(end))
        records.append(dict(rec, turned=True, reason="", end=list(end)))
    return state, records


def _first_keeping_contact(state: Battlefield, geo, turn) -> tuple[Battlefield | None, str, float]:
    """The state after the first free spot of ``turn`` whose snapshot shows the enemy on the
    unit's front (at most TURN_CHECKS spots are checked that far); else (None, why, 0)."""
    first_why = ""
    checked = 0
    for slide, pos, problems in turn.options(geo):
        if problems:
            first_why = first_why or "; ".join(problems) + " wherever its new front meets " + turn.enemy
            continue
        after = place(state, turn.unit, pos, turn.facing_deg)
        if geometry(after).sides(turn.unit).enemy_sides.get(turn.enemy) == "front":
            return after, "", slide
        first_why = first_why or f"it would lose base contact with {turn.enemy}"
        checked += 1
        if checked >= TURN_CHECKS:
            break
    return None, first_why or f"no spot keeps base contact with {turn.enemy}", 0.0
