"""The state: plain frozen data, changed by ``dataclasses.replace``.

Coordinates are inches, origin bottom-left, y up; facing in degrees
counter-clockwise from +x.  A unit has an ``id``; its models are
``<unit id>/<n>``, n from 1 in file order.  Nothing here imports Shapely,
pymunk or pygame.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from tabletop.board.bases import Base
from tabletop.board.config import RulesConfig
from tabletop.board.frozen import evolve
from tabletop.errors import MapValidationError

DEFAULT_FACING = 90.0

Point = tuple[float, float]


@dataclass(frozen=True)
class Player:
    id: str
    colour: str | None = None
    active: bool = False
    name: str | None = None


@dataclass(frozen=True)
class Terrain:
    """A terrain piece: ``kind`` in ruin | woods | obstacle | impassable | hill | building.

    ``polygon`` is always the outline (a ``rect`` is expanded at load);
    ``rect`` keeps the rectangle as written, for saving.  ``tall_part`` is
    optional: the part of the footprint whose walls are tall (over 4" in the
    tournament layouts), for drawing; the board stays 2D, movement ignores it.
    """

    id: str
    kind: str
    polygon: tuple[Point, ...]
    rect: dict[str, Any] | None = field(default=None, compare=False, hash=False)
    name: str | None = None
    tall_part: tuple[Point, ...] | None = None

    @property
    def impassable(self) -> bool:
        return self.kind in ("impassable", "building")


@dataclass(frozen=True)
class Objective:
    """An objective marker, placed by its centre; ``range`` from its edge (inches)."""

    id: str
    at: Point
    marker: Base
    range: float | None = None   # None: the ruleset's objective_range
    name: str | None = None


@dataclass(frozen=True)
class Deployment:
    player: str
    polygon: tuple[Point, ...]
    name: str | None = None


@dataclass(frozen=True)
class Model:
    """One model on the table.

    ``base``, ``facing_deg``, ``profile``, ``weapons`` and ``keywords`` are
    resolved (the model's own value, else its unit's); ``written`` names the
    optional keys the map file gave this model itself, so saving writes only
    those.  ``wounds_lost`` counts wounds already lost.
    """

    id: str
    x: float
    y: float
    facing_deg: float
    base: Base
    profile: dict[str, Any] = field(default_factory=dict, hash=False)
    weapons: tuple[dict[str, Any], ...] = ()
    keywords: tuple[str, ...] = ()
    name: str | None = None
    role: str | None = None
    wounds_lost: int = 0
    status: tuple[str, ...] = ()
    written: frozenset[str] = frozenset()

    @property
    def at(self) -> Point:
        return (self.x, self.y)

    @property
    def unit_id(self) -> str:
        return self.id.rsplit("/", 1)[0]

    def moved_to(self, x: float, y: float, facing_deg: float | None = None) -> Model:
        """A copy at (x, y) (and facing), everything else kept."""
        if facing_deg is None:
            return replace(self, x=float(x), y=float(y))
        return replace(self, x=float(x), y=float(y), facing_deg=float(facing_deg),
                       written=self.written | {"facing"})

    def has(self, keyword: str) -> bool:
        return keyword.lower() in (k.lower() for k in self.keywords)


@dataclass(frozen=True)
class Formation:
    """A rank-and-flank layout as written: files x ranks behind a front centre."""

    front_centre: Point
    facing: float
    files: int
    ranks: int
    count: int


@dataclass(frozen=True)
class Unit:
    id: str
    player: str
    base: Base
    models: tuple[Model, ...]
    name: str | None = None
    keywords: tuple[str, ...] = ()
    profile: dict[str, Any] = field(default_factory=dict, hash=False)
    weapons: tuple[dict[str, Any], ...] = ()
    charged: bool = False
    status: tuple[str, ...] = ()
    facing_deg: float | None = None
    formation: Formation | None = field(default=None, compare=False)
    # the positions the formation laid out, to know at save time whether it still holds
    formation_layout: tuple[tuple[float, float, float], ...] | None = field(
        default=None, compare=False, repr=False)

    def has(self, keyword: str) -> bool:
        return keyword.lower() in (k.lower() for k in self.keywords)

    def model(self, model_id: str) -> Model:
        for m in self.models:
            if m.id == model_id:
                return m
        raise KeyError(model_id)

    @property
    def label(self) -> str:
        return self.name or self.id


@dataclass(frozen=True)
class Table:
    width: float
    depth: float


@dataclass(frozen=True)
class Decision:
    """A scripted answer (``[[decisions]]``).  ``by`` is who answered in the run a
    ``view --play`` save records (``"window"``: the person, ``"default"``: the default
    policy; None: written by hand).  With ``by`` set, a choice whose default policy
    searches (pile-in and consolidation targets) searches again when replayed, as the
    recorded run did, so its ``tried`` report is the same."""

    player: str
    choice: str
    value: Any
    by: str | None = None


def toml_value(value: Any) -> Any:
    """A decision's ``value`` in a form a map's ``[[decisions]]`` takes: tuples become
    lists (a selection of targets), everything else as it is (ids, names, true/false)."""
    if isinstance(value, (list, tuple)):
        return [toml_value(v) for v in value]
    return value


@dataclass(frozen=True)
class Battlefield:
    """The whole state of a map.

    ``path`` is the file it was loaded from (None when built in code).
    ``seed`` is the dice seed the map names (``[map] seed``): the run its
    ``decisions`` record (``view --play`` saves both); None when it names none.
    """

    name: str
    table: Table
    rules: RulesConfig
    players: tuple[Player, ...]
    units: tuple[Unit, ...] = ()
    terrain: tuple[Terrain, ...] = ()
    objectives: tuple[Objective, ...] = ()
    deployment: tuple[Deployment, ...] = ()
    decisions: tuple[Decision, ...] = ()
    source: str | None = None
    seed: int | None = None
    path: str | None = field(default=None, compare=False)
    lesson: tuple[Any, ...] = ()        # [[lesson]] steps (board.lesson.LessonStep)

    # --- lookups ---------------------------------------------------------
    @property
    def ruleset(self) -> str:
        return self.rules.ruleset

    @property
    def active_player(self) -> str:
        """The id of the player whose turn it is (``active = true``, else the first).

        Raises
        ------
        MapValidationError
            When the map has no players (a measured table: ``check``, ``measure``,
            ``render`` and ``compare`` work on it, the rules do not).
        """
        for p in self.players:
            if p.active:
                return p.id
        if not self.players:
            raise MapValidationError([f"{self.path or '<map>'}: [[players]]: none: the rules "
                                      f"need the two players (a measured table has none; "
                                      f"check, measure, render and compare work without)"])
        return self.players[0].id

    def other_player(self, player_id: str) -> str:
        for p in self.players:
            if p.id != player_id:
                return p.id
        return player_id

    def player(self, player_id: str) -> Player:
        for p in self.players:
            if p.id == player_id:
                return p
        raise KeyError(player_id)

    def _units_by_id(self) -> dict[str, Unit]:
        """The units by id, worked out once per table and kept with it (the table never
        changes; ``evolve`` and ``replace`` make a new one without it)."""
        got = self.__dict__.get("_by_id")
        if got is None:
            got = {}
            for u in self.units:
                got.setdefault(u.id, u)
            object.__setattr__(self, "_by_id", got)
        return got

    def unit(self, unit_id: str) -> Unit:
        got = self._units_by_id().get(unit_id)
        if got is None:
            raise KeyError(unit_id)
        return got

    def has_unit(self, unit_id: str) -> bool:
        return unit_id in self._units_by_id()

    def model(self, model_id: str) -> Model:
        unit = self.unit(model_id.rsplit("/", 1)[0])
        return unit.model(model_id)

    def models(self) -> Iterator[Model]:
        for u in self.units:
            yield from u.models

    def owner(self, model_or_unit_id: str) -> str:
        """The player id owning a unit or model id."""
        uid = model_or_unit_id if self.has_unit(model_or_unit_id) else model_or_unit_id.rsplit("/", 1)[0]
        return self.unit(uid).player

    def units_of(self, player_id: str) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.player == player_id)

    def objective(self, objective_id: str) -> Objective:
        for o in self.objectives:
            if o.id == objective_id:
                return o
        raise KeyError(objective_id)

    def terrain_piece(self, terrain_id: str) -> Terrain:
        for t in self.terrain:
            if t.id == terrain_id:
                return t
        raise KeyError(terrain_id)

    def objective_range(self, objective: Objective) -> float:
        return objective.range if objective.range is not None else self.rules.objective_range

    # --- changes (each returns a new Battlefield) ------------------------
    def with_unit(self, unit: Unit) -> Battlefield:
        """Replace the unit with the same id (drop it when it has no models)."""
        units = []
        for u in self.units:
            if u.id == unit.id:
                if unit.models:
                    units.append(unit)
            else:
                units.append(u)
        return replace(self, units=tuple(units))

    def with_models(self, models: Iterable[Model]) -> Battlefield:
        """Replace models by id (positions, facing, wounds, status)."""
        by_id = {m.id: m for m in models}
        if not by_id:
            return self
        units = []
        for u in self.units:
            if any(m.id in by_id for m in u.models):
                u = evolve(u, models=tuple(by_id.get(m.id, m) for m in u.models))
            units.append(u)
        return evolve(self, units=tuple(units))

    def with_positions(self, positions: dict[str, Point]) -> Battlefield:
        """Move models: ``{model id: (x, y)}``."""
        return self.with_models(self.model(mid).moved_to(*xy) for mid, xy in positions.items())

    def without_models(self, model_ids: Iterable[str]) -> Battlefield:
        """Remove models (casualties); a unit with none left is dropped."""
        gone = set(model_ids)
        touched = {mid.rsplit("/", 1)[0] for mid in gone}
        units = []
        for u in self.units:
            if u.id not in touched:         # only the units named by the ids can lose models
                units.append(u)
                continue
            kept = tuple(m for m in u.models if m.id not in gone)
            if kept:
                units.append(u if len(kept) == len(u.models) else evolve(u, models=kept))
        return evolve(self, units=tuple(units))
