"""The rank-and-flank combat round's event types; fields as in docs/json.md."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from tabletop.rules.events.base import ABSENT, Absent, Event

__all__ = [
    "Engagements", "NoEngagements", "Engagement", "UnitGeometry", "Attackers",
    "Duel", "Blows", "KillingBlow", "SteppedUp", "ClosedUp", "CloseUpBlocked", "CarriedOver",
    "CombatScore", "BreakTest", "Fled", "TurnedToFace", "TurnBlocked", "ChargeOver",
    "WoundsPooled",
]


@dataclass(frozen=True, kw_only=True)
class Engagements(Event):
    """Rank-and-flank: the engagements (lists of unit ids) this phase fights"""

    type: ClassVar[str] = "engagements"
    engagements: list[Any]


@dataclass(frozen=True, kw_only=True)
class NoEngagements(Event):
    """Rank-and-flank: nobody is engaged"""

    type: ClassVar[str] = "no_engagements"
    text: str


@dataclass(frozen=True, kw_only=True)
class Engagement(Event):
    """Rank-and-flank: engagement index of of starts"""

    type: ClassVar[str] = "engagement"
    index: int
    of: int
    units: list[Any]
    first_round: bool


@dataclass(frozen=True, kw_only=True)
class UnitGeometry(Event):
    """A unit's formation as the geometry reads it (facing in degrees)"""

    type: ClassVar[str] = "unit_geometry"
    unit: str
    files: int
    ranks: int
    facing: float
    sides: dict[str, Any]
    disrupted: bool
    disrupted_reasons: list[Any]
    surrounded: bool


@dataclass(frozen=True, kw_only=True)
class Attackers(Event):
    """Who attacks, by the side the enemy touches"""

    type: ClassVar[str] = "attackers"
    unit: str
    by_kind: dict[str, Any]
    attacks: list[Any]


@dataclass(frozen=True, kw_only=True)
class Duel(Event):
    """Two commanders in contact fight each other"""

    type: ClassVar[str] = "duel"
    commanders: list[Any]


@dataclass(frozen=True, kw_only=True)
class Blows(Event):
    """A rank-and-flank attack group resolved"""

    type: ClassVar[str] = "blows"
    unit: str
    player: str
    target: str
    target_model: None | str
    models: list[Any]
    dice: int
    by_kind: dict[str, Any]
    to_hit: str
    save: str
    lethal: bool
    hits: int
    unsaved: int
    wounds: int


@dataclass(frozen=True, kw_only=True)
class KillingBlow(Event):
    """Wounds from a killing blow"""

    type: ClassVar[str] = "killing_blow"
    model: str
    count: Any
    wounds_each: Any


@dataclass(frozen=True, kw_only=True)
class SteppedUp(Event):
    """A rear-rank model steps into a gap"""

    type: ClassVar[str] = "stepped_up"
    unit: str
    model: str
    into: str
    at: list[Any]
    text: str


@dataclass(frozen=True, kw_only=True)
class ClosedUp(Event):
    """Rank-and-flank: casualties parted two units that were in base contact when the blows were struck, and unit moves back into contact with target's side (front, left, right, rear): shift [dx, dy] inches, square inches straight in, slide inches along the side (signed), flush whether it ends flush along that side ([rules] close_up)"""

    type: ClassVar[str] = "closed_up"
    unit: str
    target: str
    side: str
    shift: list[Any]
    square: float
    slide: float
    flush: bool
    text: str


@dataclass(frozen=True, kw_only=True)
class CloseUpBlocked(Event):
    """Rank-and-flank: unit cannot close back up to target's side (reason: it would overlap a base, not reach the side, or leave another base contact); the two are no longer locked"""

    type: ClassVar[str] = "close_up_blocked"
    unit: str
    target: str
    side: str
    reason: str
    text: str


@dataclass(frozen=True, kw_only=True)
class CarriedOver(Event):
    """Wounds carried over on a multi-wound unit"""

    type: ClassVar[str] = "carried_over"
    unit: str
    wounds: int


@dataclass(frozen=True, kw_only=True)
class CombatScore(Event):
    """The combat score"""

    type: ClassVar[str] = "combat_score"
    scores: dict[str, Any]
    breakdown: list[Any]
    winner: str
    difference: int
    result: Any | Absent = ABSENT


@dataclass(frozen=True, kw_only=True)
class BreakTest(Event):
    """A break test or a crumble"""

    type: ClassVar[str] = "break_test"
    unit: str
    player: str
    test: str
    dice: list[Any]
    total: int | Absent = ABSENT
    discipline: int | Absent = ABSENT
    discipline_from: str | Absent = ABSENT
    ranks: int | Absent = ABSENT
    difference: int | Absent = ABSENT
    fearless: bool | Absent = ABSENT
    target: int | Absent = ABSENT
    passed: bool | Absent = ABSENT
    result: str | Absent = ABSENT
    wounds: int | Absent = ABSENT


@dataclass(frozen=True, kw_only=True)
class Fled(Event):
    """A unit flees (directions in degrees, distances in inches)"""

    type: ClassVar[str] = "fled"
    unit: str
    player: str
    away_from: list[Any]
    direction: float
    away_sides: dict[str, Any]
    move: float
    distance: float
    extra: float
    start: list[Any]
    end: list[Any]


@dataclass(frozen=True, kw_only=True)
class TurnedToFace(Event):
    """A unit turns to face an enemy"""

    type: ClassVar[str] = "turned_to_face"
    unit: str
    enemy: str
    side: str
    facing_before: float
    facing_after: float
    contact: float
    shift: float
    front_centre: list[Any]
    centre: list[Any]
    end: list[Any]


@dataclass(frozen=True, kw_only=True)
class TurnBlocked(Event):
    """A unit cannot turn to face"""

    type: ClassVar[str] = "turn_blocked"
    unit: str
    enemy: str
    side: str
    facing: float
    reason: str
    text: str
    facing_wanted: float
    centre: list[Any]


@dataclass(frozen=True, kw_only=True)
class ChargeOver(Event):
    """Charge bonuses end after the first round"""

    type: ClassVar[str] = "charge_over"
    units: list[Any]
    text: str



@dataclass(frozen=True, kw_only=True)
class WoundsPooled(Event):
    """The wounds the blows caused, pooled per unit, and what they do: ``units`` {unit: {pool,
    removed: [model ids], carried}} (the models the pool removes, the wounds carried over)."""

    type: ClassVar[str] = "wounds_pooled"
    units: dict[str, Any]


CLASSES: tuple[type[Event], ...] = (
    Engagements, NoEngagements, Engagement, UnitGeometry, Attackers, Duel, Blows, KillingBlow,
    SteppedUp, ClosedUp, CloseUpBlocked, CarriedOver, CombatScore, BreakTest, Fled, TurnedToFace,
    TurnBlocked, ChargeOver, WoundsPooled,
)
"""This module's event classes, in the order docs/json.md lists them."""
