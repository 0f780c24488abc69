"""Fleeing, destruction and turning to face (rank-and-flank-combat.txt "Fleeing").

A unit that fails its break test flees at once: it turns and runs its full
Move directly away from the enemy it was fighting.  It is destroyed instead
when it was surrounded (enemies on opposite sides), when its Move is less
than 1", or when it runs off the edge of the battlefield.  The winners do
not pursue.  A unit still in contact with a single enemy on its flank or
rear turns to face it.

Named defaults
--------------
AWAY = "from the enemy's centroid through its own"
    "Directly away" is the line from the centroid of the models of the enemy
    units it was fighting through the centroid of its own models
    (``geometry.ranks.away_direction``); if those coincide, straight out of
    the side opposite the one the enemy touched.
FLEE_MOVE = "slowest model's Move"
    The unit's Move is the lowest Move among its models.
SURROUNDED_WHEN = "after casualties"
    Surrounded is read from the contacts left once casualties are removed.
Fleeing units keep the status ``fleeing`` (written by ``-o``).
"""

from __future__ import annotations

from dataclasses import replace

from tabletop.board.state import Battlefield
from tabletop.geometry import snapshot
from tabletop.geometry.ranks import FLANKS, away_direction, flee_move, turn_to_face
from tabletop.rules.events import EventLog
from tabletop.rules.rank_and_flank import clauses as C
from tabletop.rules.rank_and_flank import profiles as P

AWAY = "from the enemy's centroid through its own"
FLEE_MOVE = "slowest model's Move"
FLEEING = "fleeing"


def place(state: Battlefield, unit_id: str, positions: dict[str, tuple[float, float, float]],
          facing: float, status: tuple[str, ...] | None = None) -> Battlefield:
    """The unit with its models at ``positions`` {id: (x, y, facing)} and its facing set."""
    unit = state.unit(unit_id)
    models = tuple(m.moved_to(*positions[m.id]) if m.id in positions else m for m in unit.models)
    unit = replace(unit, models=models, facing_deg=facing % 360.0,
                   status=unit.status if status is None else status)
    return state.with_unit(unit)


def destroy(state: Battlefield, unit_id: str, reason: str, log: EventLog, rule: str) -> Battlefield:
    """Remove the whole unit; event ``destroyed`` {unit, reason, models}."""
    models = [m.id for m in state.unit(unit_id).models]
    log.emit("destroyed", rule, unit=unit_id, player=state.unit(unit_id).player, reason=reason,
             models=models)
    return state.without_models(models)


def unit_move(state: Battlefield, unit_id: str) -> float:
    """The unit's Move (FLEE_MOVE: its slowest model's), inches."""
    return float(min(P.model_stat(m, "Move") for m in state.unit(unit_id).models))


def flee(state: Battlefield, unit_id: str, away_from: list[str], surrounded: bool,
         log: EventLog) -> tuple[Battlefield, dict]:
    """The unit flees at once (or is destroyed).  Returns the new state and a
    drawing record ``{unit, from, to, direction, distance, outcome, reason}``."""
    move = unit_move(state, unit_id)
    geo = snapshot(state)
    enemies = [e for e in away_from if state.has_unit(e)]
    side = geo.sides(unit_id).enemy_sides.get(enemies[0]) if enemies else None
    direction = away_direction(geo, unit_id, enemies, side)
    fm = flee_move(geo, unit_id, direction, move)
    record = {"unit": unit_id, "from": list(fm.start), "to": list(fm.end),
              "direction": round(direction, 3), "distance": round(fm.distance, 4),
              "move": move, "away_from": enemies}
    if surrounded:
        reason = "surrounded: enemies on opposite sides"
    elif move < 1.0:
        reason = f"its Move ({move:g}\") is less than 1\""
    elif fm.off_table:
        reason = f"it runs off the edge of the battlefield ({len(fm.off_table)} models past the edge)"
    else:
        reason = ""
    if reason:
        record.update(outcome="destroyed", reason=reason)
        return destroy(state, unit_id, reason, log, C.NOT_AWAY), record
    status = tuple(s for s in state.unit(unit_id).status if s != FLEEING) + (FLEEING,)
    state = place(state, unit_id, fm.positions, direction, status)
    log.emit("fled", C.FLEEING, unit=unit_id, player=state.unit(unit_id).player, away_from=enemies,
             direction=direction, move=move, distance=fm.distance, extra=fm.extra,
             start=list(fm.start), end=list(fm.end))
    record.update(outcome="fled", reason="")
    return state, record


def turn_to_face_all(state: Battlefield, units: list[str], log: EventLog) -> tuple[Battlefield, list[dict]]:
    """Each unit (not fleeing) in contact with a single enemy on its flank or rear turns to face it."""
    records = []
    for u in units:
        if not state.has_unit(u) or FLEEING in state.unit(u).status:
            continue
        geo = snapshot(state)
        sides = geo.sides(u)
        if len(sides.enemy_units) != 1:
            continue
        enemy = sides.enemy_units[0]
        side = sides.enemy_sides[enemy]
        if side not in FLANKS and side != "rear":
            continue
        form = geo.formation(u)
        before = form.facing_deg
        positions = turn_to_face(geo, u, side)
        after = form.side_facing_deg(side)
        state = place(state, u, positions, after)
        overlaps = [p for p in snapshot(state).overlaps
                    if any(x.rsplit("/", 1)[0] == u for x in p)]
        log.emit("turned_to_face", C.TURN_TO_FACE, unit=u, enemy=enemy, side=side,
                 facing_before=before, facing_after=after,
                 **({"overlaps": [list(p) for p in overlaps]} if overlaps else {}))
        records.append({"unit": u, "enemy": enemy, "side": side, "from": before, "to": after,
                        "centre": list(form.origin)})
    return state, records
