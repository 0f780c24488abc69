"""Commanders in combat (rank-and-flank-combat.txt "Commanders in combat").

A commander (``role = "commander"``) fights alongside its unit but
separately, with its own Skill, Power and Attacks, against one enemy it is
in base contact with, to the front or a flank (the rear only when its unit
is a single rank deep).  When both sides of a fight have a commander, the
commanders duel: they attack each other, not the troops (DUEL_WHEN).  A
commander riding a monster or chariot (keyword ``monster`` or ``chariot``)
fights as part of its mount, i.e. as one of the unit's models.

Named defaults
--------------
DUEL_WHEN = "the two units are in base contact"
    "When both sides of a fight have a commander, the commanders duel": a
    fight is two enemy units in base contact with each other; when each has
    a living commander that fights separately, those commanders duel,
    whether or not they touch each other's unit (the rule asks nothing of
    where they stand).  The units must touch on sides the commanders may
    fight to: not the rear of a unit more than one rank deep.
DUEL_PAIRING = "touching first, then contact length, then engagement order"
    Each commander duels at most once.  Pairs are taken greedily: first
    pairs whose commanders both touch the other unit, then one, then none;
    among those, the units with the longer base contact; then units in
    engagement order.
COMMANDER_TARGET = decision "commander_target"
    An unpaired commander touching several enemy units asks its player; the
    default is the enemy unit it touches along the most edge.
NO_CONTACT = "does not fight"
    A commander not in base contact with an enemy on a side it may fight
    to makes no attacks (and no supporting attack: it fights separately).
"""

from __future__ import annotations

from tabletop.board.state import Battlefield
from tabletop.geometry import Geometry
from tabletop.rules.decisions import Decisions
from tabletop.rules.rank_and_flank import clauses as C
from tabletop.rules.rank_and_flank import profiles as P
from tabletop.rules.rank_and_flank.attacks import Attack, model_attacks

DUEL_WHEN = "the two units are in base contact"
DUEL_PAIRING = "touching first, then contact length, then engagement order"
NO_CONTACT = "does not fight"


def commanders_of(state: Battlefield, unit_id: str, alive=None) -> list[str]:
    """Commander model ids of a unit that fight separately (alive ones)."""
    keep = None if alive is None else set(alive)
    return [m.id for m in state.unit(unit_id).models
            if P.is_commander(m) and (keep is None or m.id in keep)]


def fightable(geo: Geometry, model_id: str) -> dict[str, float]:
    """``{enemy unit: contact length}`` a commander may fight: touched on its
    unit's front or flanks, or its rear when the unit is one rank deep."""
    uid = geo.model(model_id).unit_id
    form = geo.formation(uid)
    allowed = {"front", "left", "right"} | ({"rear"} if form.rank_count() == 1 else set())
    out: dict[str, float] = {}
    for c in geo.sides(uid).contacts_of(model_id):
        if c.side in allowed:
            out[c.enemy_unit] = out.get(c.enemy_unit, 0.0) + c.length + 1e-6
    return out


def _sides_allowed(geo: Geometry, unit_id: str, enemy_unit: str) -> bool:
    """``enemy_unit`` touches ``unit_id`` on a side its commander may fight to."""
    side = geo.sides(unit_id).enemy_sides.get(enemy_unit)
    return side is not None and (side != "rear" or geo.formation(unit_id).rank_count() == 1)


def pair_duels(geo: Geometry, units: list[str], cmds: dict[str, list[str]],
               can: dict[str, dict[str, float]]) -> list[tuple[str, str]]:
    """The duels (pairs of commander model ids, the first of the earlier unit) under
    DUEL_WHEN and DUEL_PAIRING.  ``cmds`` {unit: commanders}; ``can`` {commander:
    {enemy unit it touches: contact length}} (``fightable``)."""
    order = {u: i for i, u in enumerate(units)}
    candidates = []
    for i, u in enumerate(units):
        for e in units[i + 1:]:
            if not cmds.get(u) or not cmds.get(e) or e not in geo.sides(u).enemy_sides:
                continue
            if not (_sides_allowed(geo, u, e) and _sides_allowed(geo, e, u)):
                continue
            length = sum(c.length for c in geo.sides(u).contacts if c.enemy_unit == e)
            for c in cmds[u]:
                for d in cmds[e]:
                    touching = (e in can[c]) + (u in can[d])
                    candidates.append((-touching, -round(length, 6), order[u], order[e], c, d))
    duels: list[tuple[str, str]] = []
    paired: set[str] = set()
    for *_, c, d in sorted(candidates):
        if c not in paired and d not in paired:
            duels.append((c, d))
            paired |= {c, d}
    return duels


def plan_commanders(state: Battlefield, geo: Geometry, units: list[str], first: bool,
                    decisions: Decisions) -> tuple[list[Attack], list[tuple[str, str]], list[str]]:
    """Commanders' attacks, the duels (pairs of model ids) and notes.

    Each duel adds an ``Attack`` of kind "duel" for both commanders.
    """
    cmds = {u: commanders_of(state, u) for u in units}
    can = {c: fightable(geo, c) for u in units for c in cmds[u]}
    attacks: list[Attack] = []
    notes: list[str] = []
    duels = pair_duels(geo, units, cmds, can)
    paired = {c for pair in duels for c in pair}
    for a, b in duels:
        for me, foe in ((a, b), (b, a)):
            mu, fu = geo.model(me).unit_id, geo.model(foe).unit_id
            attacks.append(Attack(me, mu, state.unit(mu).player, "duel",
                                  geo.sides(mu).enemy_sides.get(fu, "front"),
                                  model_attacks(state, me, first), fu, target_model=foe, rule=C.DUEL))
    for u in units:
        for c in cmds[u]:
            if c in paired:
                continue
            options = can[c]
            if not options:
                notes.append(f"{c} (commander) is not in base contact with an enemy it may fight: "
                             "it does not attack")
                continue
            ranked = sorted(options, key=lambda e: (-options[e], e))
            player = state.unit(u).player
            target = decisions.choose(player, "commander_target", ranked, default=ranked[0],
                                      rule=C.COMMANDERS, context={"commander": c})
            side = next(s.side for s in geo.sides(u).contacts_of(c) if s.enemy_unit == target)
            n = model_attacks(state, c, first)
            if n > 0:
                attacks.append(Attack(c, u, player, "commander", side, n, target, rule=C.COMMANDERS))
    return attacks, duels, notes
