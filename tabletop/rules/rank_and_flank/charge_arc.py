"""Which arc of its target a charger is in (the side it will hit).

rank-and-flank-combat.txt "Combat Phase" says the side to hit is decided when
the charge is declared but not how; measurements.csv TOW "Arcs" gives the
arcs (quadrants from the target's corners at 45 degrees).  Rank-and-flank
players decide it by where most of the charger's front rank stands: the arc
holding the most front-rank models (``geometry.arcs.front_rank_arcs``;
boundaries within the map's contact tolerance, ``geometry.ranks.ARC_ON_LINE``).

Named default
-------------
CHARGE_ARC_TIE = "roll"   ([rules] charge_arc_tie: "roll" or "front-edge centre")
    When two or more arcs hold as many front-rank models, the game's way is a
    D6: the tied arcs in the order front, left, right, rear share the faces
    evenly (two arcs: 1-3 the first, 4-6 the second; three: 1-2, 3-4, 5-6;
    four: 1-4, re-rolling 5 and 6), rolled with the run's dice and logged.
    "front-edge centre" takes the arc the middle of the charger's front edge
    stands in instead (no roll).
"""

from __future__ import annotations

from dataclasses import dataclass

from tabletop.geometry.arcs import front_rank_arcs
from tabletop.geometry.ranks import SIDES
from tabletop.rules.dice import Dice

__all__ = ["ARC_RULE", "CHARGE_ARC_TIE", "TIE_OPTIONS", "ArcCall", "charger_arc"]

CHARGE_ARC_TIE = "roll"
TIE_OPTIONS = ("roll", "front-edge centre")
ARC_RULE = "measurements.csv TOW 1st Arcs; majority of the front rank"


@dataclass(frozen=True)
class ArcCall:
    """The arc decided: ``arc``; ``counts`` {arc: front-rank models in it}; ``models``
    {arc: [ids]}; ``tied`` the arcs that tied for the most (empty when one led); ``how``
    "majority", "roll" or "front-edge centre"; ``roll`` the D6 faces rolled (empty when
    none); ``point`` the middle of the charger's front edge (x, y inches)."""

    arc: str
    counts: dict[str, int]
    models: dict[str, list[str]]
    tied: tuple[str, ...]
    how: str
    roll: tuple[int, ...]
    point: tuple[float, float]


def charger_arc(geo, charger: str, target: str, dice: Dice | None = None,
                tie: str | None = None, player: str | None = None) -> ArcCall:
    """The arc of ``target`` that ``charger`` is in: the one holding most of its front rank.

    ``tie`` is the [rules] ``charge_arc_tie`` (default CHARGE_ARC_TIE); ``dice`` rolls the
    tie-break D6 (logged with its purpose) and is needed only when a tie is rolled for.

    Raises
    ------
    ValueError
        An unknown ``tie`` option, or a tie to roll for without ``dice``.
    UnknownIdError
        When either unit has no models on the table.
    """
    tie = CHARGE_ARC_TIE if tie is None else tie
    if tie not in TIE_OPTIONS:
        raise ValueError(f"unknown charge_arc_tie {tie!r}: use \"roll\" or \"front-edge centre\"")
    models = front_rank_arcs(geo, charger, target)
    counts = {s: len(models[s]) for s in SIDES}
    best = max(counts.values())
    tied = tuple(s for s in SIDES if counts[s] == best)
    x, y = geo.formation(charger).front_centre
    point = (x, y)
    if len(tied) == 1:
        return ArcCall(tied[0], counts, models, (), "majority", (), point)
    if tie == "front-edge centre":
        arc = geo.formation(target).arc_of(x, y)
        return ArcCall(arc, counts, models, tied, tie, (), point)
    if dice is None:
        raise ValueError("a tie between arcs is rolled for: dice are needed")
    k = len(tied)
    usable = 6 - 6 % k
    faces: list[int] = []
    while True:
        face = dice.d(6, purpose=f"{charger}'s front rank ties between {', '.join(tied)}: "
                                 f"which arc it charges in", rule=ARC_RULE, player=player,
                      result=lambda f: tied[(f[0] - 1) * k // usable] if f[0] <= usable else "re-roll")
        faces.append(face)
        if face <= usable:
            break
    arc = tied[(faces[-1] - 1) * k // usable]
    return ArcCall(arc, counts, models, tied, "roll", tuple(faces), point)
