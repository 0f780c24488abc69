"""What one Fight phase remembers while it runs (fight-phase.txt 12.01-12.09).

The state is plain data and changes only by replacement; the geometry
snapshot is rebuilt lazily whenever the state changes.  The phase also keeps
what the text makes depend on history: which units have been selected to
fight (12.04), which were engaged at the start of the Fight step (12.04,
12.06), which were eligible to fight at any time this phase (12.08), which
have already piled in or consolidated in their step (12.02, 12.07).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tabletop.board.config import RulesConfig
from tabletop.board.state import Battlefield, Model
from tabletop.geometry import Geometry, snapshot
from tabletop.rules.decisions import Decisions
from tabletop.rules.dice import Dice
from tabletop.rules.events import EventLog


@dataclass
class FightOptions:
    """Readings of the text that differ by preset (named defaults, ``[rules]`` options).

    ``engaged_at_step_start_keeps_eligible`` (12.04, see ``eligibility.py``)
    and ``fight_order_first`` ("active" | "non-active", 12.04, see
    ``sequence.py``).  The plain constructor gives the "11th" preset's
    values; a phase takes them from the map with ``from_rules``.
    """

    engaged_at_step_start_keeps_eligible: bool = RulesConfig.engaged_at_step_start_keeps_eligible
    fight_order_first: str = RulesConfig.fight_order_first

    @classmethod
    def from_rules(cls, rules: RulesConfig) -> FightOptions:
        """The options a map's resolved ``[rules]`` (its preset and overrides) set."""
        return cls(engaged_at_step_start_keeps_eligible=rules.engaged_at_step_start_keeps_eligible,
                   fight_order_first=rules.fight_order_first)


@dataclass
class PhaseContext:
    """The running phase: state, geometry, dice, decisions, log and history."""

    state_: Battlefield
    dice: Dice
    decisions: Decisions
    log: EventLog
    options_: FightOptions | None = None     # None: from the map's [rules] (see ``options``)
    selected: list[str] = field(default_factory=list)
    ever_eligible: set[str] = field(default_factory=set)
    engaged_at_fight_start: set[str] = field(default_factory=set)
    fight_step_started: bool = False
    piled_in: set[str] = field(default_factory=set)
    consolidated: set[str] = field(default_factory=set)
    casualties: list[tuple[Model, str]] = field(default_factory=list)
    moves: list[Any] = field(default_factory=list)
    challenges: Any = None   # the Challenge Sub-phase's record (challenges = "gambit")
    _geo: Geometry | None = None

    @property
    def options(self) -> FightOptions:
        """The readings this phase uses: those given, else the map's ``[rules]``
        (``FightOptions.from_rules`` of the state the phase started from)."""
        if self.options_ is None:
            self.options_ = FightOptions.from_rules(self.state_.rules)
        return self.options_

    @property
    def state(self) -> Battlefield:
        return self.state_

    @state.setter
    def state(self, new: Battlefield) -> None:
        if new is not self.state_:
            self.state_ = new
            self._geo = None

    @property
    def geo(self) -> Geometry:
        """The snapshot of the current state (rebuilt after every change)."""
        if self._geo is None:
            self._geo = snapshot(self.state_)
        return self._geo

    @property
    def active(self) -> str:
        """The player whose turn it is."""
        return self.state_.active_player

    def other(self, player: str) -> str:
        return self.state_.other_player(player)

    def alive(self, unit_id: str) -> bool:
        return self.state_.has_unit(unit_id)

    def note_casualty(self, model: Model) -> None:
        """Remember a removed model and its owner (drawn as a casualty in the step that removed it)."""
        self.casualties.append((model, self.state_.unit(model.unit_id).player))

    def take_casualties(self) -> list[tuple[Model, str]]:
        out, self.casualties = self.casualties, []
        return out
