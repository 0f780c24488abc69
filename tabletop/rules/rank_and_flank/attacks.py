"""Who attacks, per side the enemy touches (rank-and-flank-combat.txt "Who attacks").

Read from the geometry (``geo.formation``, ``geo.sides``), never a flag:

- Front: every model of the front rank attacks with its Attacks; each model
  of the second rank adds one supporting attack (Spear and Shield: the third
  rank too, unless the unit has a charge bonus that round).
- Flank: every model along the engaged flank (the outermost model of each
  rank on that side) attacks with its full Attacks; no supporting attacks.
- Rear: nobody attacks.
- Each model attacks once; a corner model fights to its front if it can,
  otherwise to its flank.  Models with 0 Attacks make no supporting attacks.
- Lance Cavalry fewer than four models wide also fight with both flank files
  at full Attacks.
- Commanders fight separately (``commanders.py``).

Named defaults
--------------
ASSIGN_ORDER = ("front", "lance", "flank", "support")
    A model is given the first of these it qualifies for.  So a corner model
    fights to its front when the front is engaged, else its flank; and a
    model of the second rank standing on an engaged flank fights that flank
    with its full Attacks rather than adding one supporting attack.
TARGET = "touching, else nearest"
    A model attacks an enemy unit it touches on the side it fights to; a
    model of the fighting rank that touches none attacks the nearest enemy
    unit engaged on that side (edge to edge); supporting attacks go where
    the nearest model of the rank in front fights.
CHARGE_BONUS_WHEN_CHARGED = True
    A unit "has a charge bonus that round" when it charged (``charged =
    true``) and the round is the first after the charge: Spear and Shield
    then fights in two ranks, as when it charges in The Old World.
FIRST_ROUND = "any unit of the engagement charged"
    First-round effects (Frenzy) apply in an engagement's round when any of
    its units has ``charged = true``; weapon charge bonuses (lance Power)
    only to a unit that charged itself (rank-and-flank-combat.txt Charge bonuses).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tabletop.board.state import Battlefield
from tabletop.geometry import Geometry
from tabletop.rules.rank_and_flank import clauses as C
from tabletop.rules.rank_and_flank import profiles as P

ASSIGN_ORDER = ("front", "lance", "flank", "support")
TARGET = "touching, else nearest"
CHARGE_BONUS_WHEN_CHARGED = True
FIRST_ROUND = "any unit of the engagement charged"


@dataclass
class Attack:
    """One model's attacks this round.

    ``kind`` is front | support | flank | lance | commander | duel; ``side``
    the side of its own unit it fights to; ``dice`` how many attack rolls;
    ``target_unit`` the enemy unit whose wound pool it strikes, or, for a
    duel, ``target_model`` the enemy commander.  ``rule`` the clause.
    """

    model: str
    unit: str
    player: str
    kind: str
    side: str
    dice: int
    target_unit: str
    target_model: str | None = None
    rule: str = ""
    notes: list[str] = field(default_factory=list)


def first_round(state: Battlefield, units: list[str]) -> bool:
    """Is this the first round after a charge (FIRST_ROUND)?"""
    return any(state.unit(u).charged for u in units if state.has_unit(u))


def has_charge_bonus(state: Battlefield, unit_id: str) -> bool:
    """The unit charged and this is the first round (CHARGE_BONUS_WHEN_CHARGED)."""
    return CHARGE_BONUS_WHEN_CHARGED and state.unit(unit_id).charged


def model_attacks(state: Battlefield, model_id: str, first: bool) -> int:
    """A model's Attacks this round: its profile, + Frenzy in the first round."""
    m = state.model(model_id)
    a = P.model_stat(m, "Attacks")
    if first and P.has(m, P.FRENZY) and a > 0:
        a += P.FRENZY_ATTACKS
    return a


def _target(geo: Geometry, model_id: str, side: str, on_side: list[str]) -> str:
    sides = geo.sides(geo.model(model_id).unit_id)
    touching = [c.enemy_unit for c in sides.contacts_of(model_id)
                if c.side == side and c.enemy_unit in on_side]
    if touching:
        return touching[0]
    return min(on_side, key=lambda u: (geo.distance(model_id, u), u))


def plan_unit(state: Battlefield, geo: Geometry, unit_id: str, first: bool) -> tuple[list[Attack], list[str]]:
    """The rank-and-file attacks of one unit this round, and notes on who does not attack.

    Returns
    -------
    (list of Attack, list of str)
        Commanders are left out (``commanders.plan_commanders``).
    """
    form = geo.formation(unit_id)
    sides = geo.sides(unit_id)
    player = state.unit(unit_id).player
    on = {s: sides.enemies_on(s) for s in ("front", "left", "right", "rear")}
    attacks: list[Attack] = []
    notes: list[str] = []
    done: set[str] = set()
    troops = {m for m in form.placements if P.is_commander(state.model(m)) is False}
    rows = form.rank_rows()

    def add(mid: str, kind: str, side: str, dice: int, rule: str, target: str) -> None:
        done.add(mid)
        if dice <= 0:
            notes.append(f"{mid} has 0 Attacks")
            return
        attacks.append(Attack(mid, unit_id, player, kind, side, dice, target, rule=rule))

    if on["front"]:
        for mid in rows[0]:
            if mid in troops and mid not in done:
                add(mid, "front", "front", model_attacks(state, mid, first), C.FRONT,
                    _target(geo, mid, "front", on["front"]))
        unit = state.unit(unit_id)
        if P.has(unit, P.LANCE) and P.has(unit, P.CAVALRY) and form.files() < P.NARROW_LANCE_FILES:
            for side in ("left", "right"):
                for mid in form.flank_file(side):
                    if mid in troops and mid not in done:
                        add(mid, "lance", "front", model_attacks(state, mid, first), C.LANCE,
                            _target(geo, mid, "front", on["front"]))
    for side in ("left", "right"):
        if on[side]:
            for mid in form.flank_file(side):
                if mid in troops and mid not in done:
                    add(mid, "flank", side, model_attacks(state, mid, first), C.FLANK,
                        _target(geo, mid, side, on[side]))
    if on["front"]:
        support_ranks = [1]
        if P.unit_has(state, unit_id, P.SPEAR_AND_SHIELD):
            if has_charge_bonus(state, unit_id):
                notes.append(f"{unit_id}: spear and shield, but it has a charge bonus this round: "
                             "no third rank")
            else:
                support_ranks.append(2)
        for r in support_ranks:
            if r >= len(rows):
                continue
            ahead = rows[r - 1]
            for mid in rows[r]:
                if mid not in troops or mid in done:
                    continue
                done.add(mid)
                if model_attacks(state, mid, first) <= 0:
                    notes.append(f"{mid} has 0 Attacks: no supporting attack")
                    continue
                near = min(ahead, key=lambda a: abs(form.placements[a].b - form.placements[mid].b))
                hit = next((x.target_unit for x in attacks if x.model == near), None)
                target = hit if hit is not None and hit in on["front"] else _target(geo, mid, "front", on["front"])
                rule = C.SPEAR_AND_SHIELD if r == 2 else C.FRONT
                attacks.append(Attack(mid, unit_id, player, "support", "front", 1, target, rule=rule))
    if on["rear"]:
        notes.append(f"{unit_id}: {', '.join(on['rear'])} in its rear: nobody attacks to the rear")
    return attacks, notes
