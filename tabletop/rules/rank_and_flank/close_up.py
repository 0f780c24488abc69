"""Units stay locked in combat: closing back into base contact after casualties.

rank-and-flank-combat.txt "Engagements": units stay locked in combat, round
after round, until one side is destroyed or breaks.  Casualties come off after
every blow is struck, and they can take away the very models an enemy touched
(a rear charger touches the rear rank, which is the first to go).  The units
are then moved back together so the next round starts from true contacts.

Which pairs: every pair of units in base contact when the blows were struck
(``RoundContext.sides``) that both have models left but no longer touch once
the casualties are removed and survivors have stepped up.

Named defaults
--------------
CLOSE_UP_MOVER = "the enemy of the unit that lost the touched models"
    The unit whose touching models died stays where it is; the enemy that
    touched them comes in (``geometry.close_up.CLOSE_UP``, the map's [rules]
    ``close_up``: square in, then flush along the side it touched).  When both lost a share of the touching
    models, the one that lost the larger share stays; on equal shares the unit
    that touched a flank or rear moves (it came in from there), else the later
    in engagement order.
The move is made only when it overlaps no other base and keeps every other
base contact the mover had; otherwise the units stay apart (event
``close_up_blocked`` with the reason) and are no longer locked.
Events: ``closed_up`` {unit, target, side, shift, square, slide, flush, text},
``close_up_blocked`` {unit, target, side, reason, text}.
"""

from __future__ import annotations

from tabletop.board.state import Battlefield
from tabletop.geometry.close_up import CLOSE_UP, close_up
from tabletop.geometry.ranks import FLANKS, UnitSides
from tabletop.rules.events import EventLog
from tabletop.rules.rank_and_flank import clauses as C
from tabletop.rules.rank_and_flank.flee import place
from tabletop.rules.rank_and_flank.tables import geometry

__all__ = ["CLOSE_UP", "CLOSE_UP_MOVER", "close_up_all", "mover_of"]

CLOSE_UP_MOVER = "the enemy of the unit that lost the touched models"


def mover_of(sides: dict[str, UnitSides], u: str, e: str, dead: set[str],
             order: list[str]) -> tuple[str, str, str]:
    """``(mover, target, side of target)`` for the lost contact between units ``u`` and
    ``e`` (CLOSE_UP_MOVER), from the contacts when the blows were struck (``sides``) and
    the models removed (``dead``)."""
    pairs = [c for c in sides[u].contacts if c.enemy_unit == e]
    own = {c.model for c in pairs}
    theirs = {c.enemy for c in pairs}
    lost_u = len(own & dead) / len(own) if own else 0.0
    lost_e = len(theirs & dead) / len(theirs) if theirs else 0.0
    side_u, side_e = sides[u].enemy_sides[e], sides[e].enemy_sides.get(u, "front")
    if lost_u > lost_e:
        e_moves = True
    elif lost_e > lost_u:
        e_moves = False
    elif (side_u in FLANKS or side_u == "rear") != (side_e in FLANKS or side_e == "rear"):
        e_moves = side_u in FLANKS or side_u == "rear"
    else:
        e_moves = order.index(e) > order.index(u)
    return (e, u, side_u) if e_moves else (u, e, side_e)


def close_up_all(state: Battlefield, units: list[str], sides: dict[str, UnitSides],
                 dead: set[str], log: EventLog) -> tuple[Battlefield, list[dict]]:
    """Move units back into base contact where this round's casualties parted them.

    ``sides`` the contacts when the blows were struck, ``dead`` the models
    removed; ``state`` the state once they are removed and survivors stepped up.
    Returns the new state and one record per lost contact ``{unit, target, side,
    moved, shift, reason}``.
    """
    records: list[dict] = []
    done: set[frozenset[str]] = set()
    for u in units:
        for e in sorted(sides[u].enemy_sides):
            key = frozenset((u, e))
            if key in done or e not in units:
                continue
            done.add(key)
            geo = geometry(state)
            if not geo.unit_models(u) or not geo.unit_models(e):
                continue
            if e in geo.sides(u).enemy_sides:
                continue
            mover, target, side = mover_of(sides, u, e, dead, units)
            others = [x for x in geo.sides(mover).enemy_units if x != target]
            move = close_up(geo, mover, target, side, state.rules.close_up)
            reason = "; ".join(move.problems)
            after = None
            if not reason:
                facing = state.unit(mover).facing_deg
                if facing is None:      # a unit given model by model: the facing its models show
                    facing = geo.formation(mover).facing_deg
                after = place(state, mover, move.positions, facing)
                now = geometry(after).sides(mover).enemy_sides
                lost = [x for x in others if x not in now]
                if target not in now:
                    reason = f"it would not reach {target}'s {side}"
                elif lost:
                    reason = f"it would leave base contact with {', '.join(lost)}"
            where = side + (" flank" if side in FLANKS else "")
            rec = {"unit": mover, "target": target, "side": side, "shift": list(move.shift)}
            if reason:
                log.emit("close_up_blocked", C.LOCKED, unit=mover, target=target, side=side,
                         reason=reason,
                         text=f"{mover} cannot close back up to {target}'s {where}: {reason}")
                records.append(dict(rec, moved=False, reason=reason))
                continue
            assert after is not None   # placed above: no reason is given only after placing
            state = after
            log.emit("closed_up", C.LOCKED, unit=mover, target=target, side=side,
                     shift=list(move.shift), square=move.square, slide=move.slide,
                     flush=move.flush,
                     text=f"{mover} closes back up to {target}'s {where} "
                          f"({move.square:.2f}\" in, {move.slide:+.2f}\" along)")
            records.append(dict(rec, moved=True, reason=""))
    return state, records
