"""The Fight phase's event types (fight-phase.txt 12.01-12.09) and the ones every ruleset
shares (rolls, removals, notes, overridden decisions); fields as in docs/json.md."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from tabletop.rules.events.base import ABSENT, Absent, Event

__all__ = [
    "PhaseStep", "PileIn", "Consolidate", "NoMove", "SelectedToFight",
    "EligibleToFight", "NoLongerEligible", "Pass", "AttacksResolved", "MortalWounds",
    "NoAttacks", "Roll", "NoSave", "Wounded", "Removed", "Destroyed", "Note",
    "DecisionOverridden", "CombatStep", "DecisionTaken",
]


@dataclass(frozen=True, kw_only=True)
class PhaseStep(Event):
    """A step of the fight phase starts (fight-phase.txt 12.01-12.08)"""

    type: ClassVar[str] = "phase_step"
    step: str
    title: str
    player: str | Absent = ABSENT
    engaged: list[Any] | Absent = ABSENT
    eligible: list[Any] | Absent = ABSENT
    selected: list[Any] | Absent = ABSENT


@dataclass(frozen=True, kw_only=True)
class PileIn(Event):
    """A pile-in move; moves, distances and tried (the target selections searched, [] when not searched) as in [pile-in](#pile-in-and-consolidate)"""

    type: ClassVar[str] = "pile_in"
    unit: str
    player: str
    mode: str
    targets: list[Any]
    moves: dict[str, Any]
    distances: dict[str, Any]
    violations: list[Any]
    tried: list[Any]
    max_distance: float
    starts: dict[str, Any]
    closest: dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class Consolidate(Event):
    """A consolidation move"""

    type: ClassVar[str] = "consolidate"
    unit: str
    player: str
    mode: str
    targets: list[Any]
    moves: dict[str, Any]
    distances: dict[str, Any]
    violations: list[Any]
    tried: list[Any]
    max_distance: float
    starts: dict[str, Any]
    closest: dict[str, Any]


@dataclass(frozen=True, kw_only=True)
class NoMove(Event):
    """A unit that could not make its move, and why (reason and tried as in [pile-in](#pile-in-and-consolidate))"""

    type: ClassVar[str] = "no_move"
    unit: str
    player: str
    mode: Any
    targets: Any
    reason: str
    violations: Any
    tried: Any
    searched: bool


@dataclass(frozen=True, kw_only=True)
class SelectedToFight(Event):
    """A unit fights (fight: normal or overrun)"""

    type: ClassVar[str] = "selected_to_fight"
    unit: str
    player: str
    fight: str
    step: str
    fights_first: bool


@dataclass(frozen=True, kw_only=True)
class EligibleToFight(Event):
    """A unit made eligible by an engaging consolidation (12.08)"""

    type: ClassVar[str] = "eligible_to_fight"
    unit: str
    player: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class NoLongerEligible(Event):
    """A unit engaged when the Fight step began is found not eligible to fight, once, with engaged_at_step_start_keeps_eligible = false (the 10th preset): it is not engaged now (its enemies are gone) and did not charge (fight-phase.txt 12.04)"""

    type: ClassVar[str] = "no_longer_eligible"
    unit: str
    player: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class Pass(Event):
    """A player has no unit to select"""

    type: ClassVar[str] = "pass"
    player: str
    step: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class AttacksResolved(Event):
    """One weapon group's attacks, counted (integers; removed model ids). hits includes extra_hits (Sustained Hits) and wounds includes auto_wounds (Lethal Hits: Critical Hits that wound without a wound roll); critical_hits: unmodified 6s to hit; critical_wounds: Critical Wounds rolled (a 6, or the X+ of Anti-KEYWORD X+); unsaved counts each Devastating Wound; mortal_wounds: mortal wounds dealt by Devastating Wounds with [rules] devastating_wounds = "mortal" (else 0); fnp_ignored: wounds (damage points) ignored by Feel No Pain"""

    type: ClassVar[str] = "attacks_resolved"
    unit: str
    player: str
    target: str
    weapon: str
    models: list[Any]
    attacks: int
    hits: int
    wounds: int
    unsaved: int
    removed: list[Any]
    critical_hits: int
    extra_hits: int
    auto_wounds: int
    critical_wounds: int
    mortal_wounds: int
    fnp_ignored: int
    note: Any | Absent = ABSENT


@dataclass(frozen=True, kw_only=True)
class MortalWounds(Event):
    """Devastating Wounds dealt as mortal wounds ([rules] devastating_wounds = "mortal"): amount mortal wounds on unit target (of player) from unit's attacks, spilling over model to model"""

    type: ClassVar[str] = "mortal_wounds"
    unit: str
    target: str
    player: str
    amount: int
    reason: str


@dataclass(frozen=True, kw_only=True)
class NoAttacks(Event):
    """A unit or model that makes no attacks"""

    type: ClassVar[str] = "no_attacks"
    unit: str
    model: str | Absent = ABSENT
    player: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class Roll(Event):
    """One roll: what for, the dice, modifiers, what it needed (number, text or null) and the result"""

    type: ClassVar[str] = "roll"
    purpose: str
    dice: list[Any]
    modifiers: dict[str, Any]
    target: None | int | str
    result: int | str
    player: str


@dataclass(frozen=True, kw_only=True)
class NoSave(Event):
    """A save that cannot be made"""

    type: ClassVar[str] = "no_save"
    model: str
    player: str
    needed: int | None
    reason: str


@dataclass(frozen=True, kw_only=True)
class Wounded(Event):
    """A model loses wounds"""

    type: ClassVar[str] = "wounded"
    model: str
    unit: str
    damage: int
    wounds_lost: int
    wounds_left: int


@dataclass(frozen=True, kw_only=True)
class Removed(Event):
    """A model removed as a casualty"""

    type: ClassVar[str] = "removed"
    model: str
    unit: str | Absent = ABSENT
    by: str | Absent = ABSENT


@dataclass(frozen=True, kw_only=True)
class Destroyed(Event):
    """A unit destroyed"""

    type: ClassVar[str] = "destroyed"
    unit: str
    player: str | Absent = ABSENT
    reason: str
    models: list[Any] | Absent = ABSENT
    flight: dict[str, Any] | Absent = ABSENT


@dataclass(frozen=True, kw_only=True)
class Note(Event):
    """A remark in words"""

    type: ClassVar[str] = "note"
    text: str


@dataclass(frozen=True, kw_only=True)
class DecisionOverridden(Event):
    """A scripted [[decisions]] answer the rules could not take"""

    type: ClassVar[str] = "decision_overridden"
    player: str
    choice: str
    value: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class CombatStep(Event):
    """A step of the Fight step's alternation (fight-phase.txt 12.04) begins: step fights_first, remaining or end; player selects first; reason says why, e.g. the Fight step starts with the player whose turn it is, or with the player whose turn it is not, fight_order_first = non-active (the 10th preset)"""

    type: ClassVar[str] = "combat_step"
    step: str
    title: str
    player: str
    reason: str

@dataclass(frozen=True, kw_only=True)
class DecisionTaken(Event):
    """A question answered in the window (``view --play``): the window's log only."""

    type: ClassVar[str] = "decision"
    player: str
    choice: str
    value: Any
    by: str
    default: Any


CLASSES: tuple[type[Event], ...] = (
    PhaseStep, PileIn, Consolidate, NoMove, SelectedToFight, EligibleToFight, NoLongerEligible,
    Pass, AttacksResolved, MortalWounds, NoAttacks, Roll, NoSave, Wounded, Removed, Destroyed,
    Note, DecisionOverridden, CombatStep, DecisionTaken,
)
"""This module's event classes, in the order docs/json.md lists them."""
