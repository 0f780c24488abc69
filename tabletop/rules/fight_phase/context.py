"""What one Fight phase remembers while it runs (fight-phase.txt 12.01-12.09), as frozen data.

``FightMemo`` is the ``memo`` of the phase's ``PhaseState`` (the rules
engine, ``tabletop.rules.engine``): what the text makes depend on history -
which units have been selected to fight (12.04), which were engaged at the
start of the Fight step (12.04, 12.06), which were eligible to fight at any
time this phase (12.08), which have already piled in or consolidated in
their step (12.02, 12.07) - plus where the rows are in the 12.04
alternation, the fight, move or attacks under way, and the tallies the odds
read (wounds caused and models removed per unit, the units each attacked).
It changes only by ``dataclasses.replace``.  ``challenge`` is the gambit
Challenge Sub-phase's own record (``challenges = "gambit"``), kept by its rows.

``PhaseView`` reads a ``PhaseState`` the way the eligibility rules ask
(``state``, ``geo``, ``selected``, ...); the geometry snapshot of a
``Battlefield`` is built once and shared by every view of it (``geometry``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tabletop.board.config import RulesConfig
from tabletop.board.state import Battlefield
from tabletop.geometry import Geometry, snapshot

__all__ = ["FightMemo", "FightOptions", "PhaseView", "bump", "carry_geometry", "geometry",
           "less_of", "moved_geometry", "placed_geometry", "tally_get"]


@dataclass(frozen=True)
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


Tally = tuple[tuple[str, Any], ...]


def tally_get(tally: Tally, key: str, default: Any = 0) -> Any:
    """The value of ``key`` in a tally (sorted ``(key, value)`` pairs)."""
    for k, v in tally:
        if k == key:
            return v
    return default


def bump(tally: Tally, key: str, by: Any) -> Tally:
    """``tally`` with ``by`` added to ``key`` (numbers add; frozensets join)."""
    old = tally_get(tally, key, None)
    new = by if old is None else old + by if not isinstance(old, frozenset) else old | by
    return tuple(sorted([(k, v) for k, v in tally if k != key] + [(key, new)]))


@dataclass(frozen=True)
class FightMemo:
    """The Fight phase's bookkeeping (module docstring).  Fields with ``compare=False``
    (the moves made, a pending target choice) do not change what the phase does next."""

    options: FightOptions
    selected: tuple[str, ...] = ()
    ever_eligible: frozenset[str] = frozenset()
    engaged_at_fight_start: frozenset[str] = frozenset()
    fight_step_started: bool = False
    piled_in: frozenset[str] = frozenset()
    consolidated: frozenset[str] = frozenset()
    mover: str | None = None            # the player moving units in the pile-in / consolidation step
    combat: str | None = None           # the 12.04 step (COMBAT_STEPS name) ...
    selector: str | None = None         # ... and the player to select in it
    fighting: Any = None                # rows.FightJob: the unit selected to fight
    move: Any = None                    # rows.MoveJob: the pile-in or consolidation move under way
    attack: Any = None                  # attacks.AttackJob: the attacks under way
    foes: tuple[str, ...] = ()          # 12.08 AFTER MOVING: the new foes of ...
    foes_of: str | None = None          # ... this consolidating unit
    wounds_caused: Tally = ()           # unit -> wounds lost by enemy models while it fought
    removed_by: Tally = ()              # unit -> enemy models its attacks removed
    attacked: Tally = ()                # unit -> frozenset of units it made attacks at
    challenge: Any = None               # the gambit Challenge Sub-phase's record
    dropped_out: frozenset[str] = frozenset()   # units told no_longer_eligible (12.04, "10th")
    moves: tuple[Any, ...] = field(default=(), compare=False)
    choice: Any = field(default=None, compare=False)


_GEO: dict[tuple, Geometry] = {}
_GEO_MAX = 512
# (id of a snapshot, models removed) -> (that snapshot, the one after, its key): ``carry_geometry``
_DERIVED: dict[tuple[int, tuple[str, ...]], tuple[Geometry, Geometry, tuple]] = {}
# id of a snapshot -> (it, the snapshot it is, less the models removed; those models' ids)
_LESS: dict[int, tuple[Geometry, Geometry, frozenset[str]]] = {}


def less_of(geo: Geometry) -> tuple[Geometry, frozenset[str]] | None:
    """(a snapshot ``geo`` is with only the models of the set removed, that set), when
    ``carry_geometry`` made ``geo``'s table that way; else None.  Everything that does not
    read the removed models reads alike on both (``casualties._nearest``)."""
    got = _LESS.get(id(geo))
    if got is None or got[0] is not geo:
        return None
    return got[1], got[2]


def geometry(state: Battlefield) -> Geometry:
    """The geometry snapshot of a table with ``state``'s models where they are now.

    The rules read only where models stand from it (engagement, which models
    fight, removal order, moves), never wounds lost or statuses, so every table
    the attacks leave with the same models in place shares one snapshot; wounds
    lost are read from the ``Battlefield`` itself.
    """
    geo = state.__dict__.get("_geometry")
    if geo is not None:
        return geo
    key = (id(state.terrain), tuple((m.id, m.x, m.y, m.facing_deg) for m in state.models()))
    return _keep(state, key, lambda: snapshot(state))


def _keep(state: Battlefield, key: tuple, build: Callable[[], Geometry]) -> Geometry:
    """The snapshot of ``key`` (``_GEO``, else ``build()``), kept with ``state`` with its key."""
    geo = _GEO.get(key)
    if geo is None:
        geo = build()
        if len(_GEO) >= _GEO_MAX:
            _GEO.pop(next(iter(_GEO)))
        _GEO[key] = geo
    object.__setattr__(state, "_geometry", geo)    # the table never changes: keep it with it
    object.__setattr__(state, "_geometry_key", key)
    return geo


placed_geometry = geometry


def carry_geometry(parent: Battlefield, child: Battlefield, removed: tuple[str, ...] = ()
                   ) -> Battlefield:
    """``child`` - a table made from ``parent`` by wounds lost, statuses, or removing the
    models ``removed`` (casualties), no model moved - with its geometry snapshot kept with
    it when ``parent`` has one: the same snapshot when nothing was removed; else the one
    ``geometry`` keeps for that placement, or one derived from ``parent``'s
    (``Geometry.without``) rather than built again.  Returns ``child``."""
    geo = parent.__dict__.get("_geometry")
    key = parent.__dict__.get("_geometry_key")
    if geo is None or key is None or "_geometry" in child.__dict__ \
            or child.terrain is not parent.terrain:
        return child
    if removed:
        hit = _DERIVED.get((id(geo), removed))
        if hit is not None and hit[0] is geo:
            object.__setattr__(child, "_geometry", hit[1])
            object.__setattr__(child, "_geometry_key", hit[2])
            return child
        gone = set(removed)
        key = (key[0], tuple(e for e in key[1] if e[0] not in gone))
        got = _keep(child, key, lambda: geo.without(child))
        if len(_DERIVED) >= _GEO_MAX:
            _DERIVED.pop(next(iter(_DERIVED)))
        _DERIVED[(id(geo), removed)] = (geo, got, key)
        if got is not geo and id(got) not in _LESS:
            if len(_LESS) >= _GEO_MAX:
                _LESS.pop(next(iter(_LESS)))
            _LESS[id(got)] = (got, geo, frozenset(removed))
    else:
        object.__setattr__(child, "_geometry", geo)
        object.__setattr__(child, "_geometry_key", key)
    return child


def moved_geometry(parent: Battlefield, child: Battlefield, changed: set[str]) -> Battlefield:
    """``child`` - a table made from ``parent`` where only the models ``changed`` (ids) moved,
    were removed or were added, every other model where it stands in ``parent`` - with its
    geometry snapshot kept with it: the one ``geometry`` keeps for that placement, else
    derived from ``parent``'s (``Geometry.moved``: only the pairs touching ``changed``
    measured).  Returns ``child``."""
    if "_geometry" in child.__dict__ or child.terrain is not parent.terrain:
        return child
    key = (id(child.terrain), tuple((m.id, m.x, m.y, m.facing_deg) for m in child.models()))
    _keep(child, key, lambda: geometry(parent).moved(child, changed))
    return child


class PhaseView:
    """A phase state as the eligibility rules read it (``eligibility.py``): the table, its
    geometry, the options and the history.  Read only."""

    def __init__(self, state: Battlefield, memo: FightMemo):
        self.state = state
        self.memo = memo

    @property
    def geo(self) -> Geometry:
        return geometry(self.state)

    @property
    def options(self) -> FightOptions:
        return self.memo.options

    @property
    def selected(self) -> tuple[str, ...]:
        return self.memo.selected

    @property
    def ever_eligible(self) -> frozenset[str]:
        return self.memo.ever_eligible

    @property
    def engaged_at_fight_start(self) -> frozenset[str]:
        return self.memo.engaged_at_fight_start

    @property
    def active(self) -> str:
        """The player whose turn it is."""
        return self.state.active_player

    def other(self, player: str) -> str:
        return self.state.other_player(player)

    def alive(self, unit_id: str) -> bool:
        return self.state.has_unit(unit_id)
