"""What a pile-in or consolidation move must do, and the facts it starts from.

fight-phase.txt 12.03 (pile-in) and 12.08 (consolidation, modes ongoing,
engaging, objective).  ``MoveSpec`` names the move; ``MoveContext`` holds
what the clauses measure from the state before the move (which models may
move, each model's closest target and its distance, the enemy units each
model starts engaged with) and evaluates candidate end points for one model
(vectorised over many points).  Inches, origin bottom-left, y up.

Reading of 12.03 as written (a named default, ``CLOSEST_TARGET_READING``):
the pile-in targets are *units*, so "closer to the closest pile-in target"
picks, for each model, the target unit whose closest model is nearest to it,
and measures the model's distance to that unit (edge to edge, to the unit's
closest model) before and after the move.  12.08 is read the same way for the
selected enemy units.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Point

from tabletop.board.state import Battlefield, Model, Objective
from tabletop.errors import IllegalMoveError, UnknownIdError
from tabletop.geometry import tolerance as tolmod
from tabletop.geometry.snapshot import Geometry
from tabletop.geometry.sweeps import core_of, cores_at, tie, ties

KINDS = ("pile_in", "ongoing", "engaging", "objective")
PILE_IN_RULE = "fight-phase.txt 12.03"
CONSOLIDATE_RULE = "fight-phase.txt 12.08"

#: 12.03 read as written: distance to a target unit is to its closest model.
CLOSEST_TARGET_READING = "unit's closest model"
#: extra inches (for base sizes) round what a move can touch: the moving unit's
#: reach plus target range plus engagement range plus this
NEIGHBOURHOOD = 4.0
#: 12.08: "within 3" of one or more enemy units / objectives" picks the mode
#: (the text gives 3" outright, so it is not the consolidate distance).
CONSOLIDATION_MODE_RANGE = 3.0


@dataclass(frozen=True)
class MoveSpec:
    """One pile-in or consolidation move to make or check.

    Attributes
    ----------
    kind : "pile_in" | "ongoing" | "engaging" | "objective"
        12.03 pile-in, or the 12.08 consolidation mode.
    unit : str
        The moving unit's id.
    targets : tuple of str
        Enemy unit ids (the pile-in targets, or the selected enemy units), or
        ``(objective id,)`` for "objective".
    max_distance : float
        Inches (``rules.pile_in_distance`` / ``rules.consolidate_distance``).
    rule : str
        "fight-phase.txt 12.03" or "fight-phase.txt 12.08".
    """

    kind: str
    unit: str
    targets: tuple[str, ...]
    max_distance: float
    rule: str

    @property
    def section(self) -> str:
        """The clause number, e.g. "12.03"."""
        return self.rule.rsplit(" ", 1)[-1]


@dataclass(frozen=True)
class Violation:
    """One broken clause: the model (None for the unit), the rule, the numbers."""

    model: str | None
    clause: str
    message: str

    def __str__(self) -> str:
        return self.message


@dataclass
class MovePlan:
    """A move: paths and end points of the models that move, and what it breaks.

    Attributes
    ----------
    paths : {model id: [(x, y), ...]}
        Polyline of centres from start to end, inches, for every moved model.
    positions : {model id: (x, y)}
        End centre of every moved model.
    closest : {model id: id}
        For each moved model, the model of its closest target nearest to where
        it ends (its distance to the target is measured to it), or the
        objective: the line to draw.
    violations : list of Violation
        Empty when the move is legal.
    order : list of model ids
        An order in which the models can make their moves one at a time.
    """

    spec: MoveSpec
    paths: dict[str, list[tuple[float, float]]]
    positions: dict[str, tuple[float, float]]
    closest: dict[str, str]
    violations: list[Violation]
    order: list[str] = field(default_factory=list)

    @property
    def legal(self) -> bool:
        return not self.violations

    def state_after(self, state: Battlefield) -> Battlefield:
        """``state`` with the moved models at their end positions."""
        return state.with_positions(self.positions)


# --------------------------------------------------------------- before moving
def pile_in_targets(state: Battlefield, geo: Geometry, unit_id: str) -> tuple[list[str], str]:
    """The pile-in targets of a unit (fight-phase.txt 12.03 BEFORE MOVING).

    Returns
    -------
    (unit ids, case)
        ``(every enemy unit it is engaged with, "engaged")`` when the unit is
        engaged, else ``(enemy units within rules.pile_in_target_range,
        "within")`` (the player may select one or more of these; the list may
        be empty).

    Raises
    ------
    UnknownIdError
        When ``unit_id`` is not a unit on the map.
    """
    _need_unit(state, unit_id)
    engaged = geo.engaged_units(unit_id)
    if engaged:
        return engaged, "engaged"
    return geo.enemy_units_within(unit_id, state.rules.pile_in_target_range), "within"


def consolidation_options(state: Battlefield, geo: Geometry,
                          unit_id: str) -> tuple[str | None, list[str]]:
    """The consolidation mode the unit must select, and what it may select (12.08).

    Returns
    -------
    ("ongoing", engaged enemy units) if the unit is engaged; else
    ("engaging", enemy units within 3") ; else ("objective", objectives
    within 3" — unit edge to marker edge); else (None, []).
    ``CONSOLIDATION_MODE_RANGE`` is the 3".

    Raises
    ------
    UnknownIdError
        When ``unit_id`` is not a unit on the map.
    """
    _need_unit(state, unit_id)
    engaged = geo.engaged_units(unit_id)
    if engaged:
        return "ongoing", engaged
    near = geo.enemy_units_within(unit_id, CONSOLIDATION_MODE_RANGE)
    if near:
        return "engaging", near
    objs = [o.id for o in state.objectives if geo.within(unit_id, o.id, CONSOLIDATION_MODE_RANGE)]
    if objs:
        return "objective", objs
    return None, []


def _need_unit(state: Battlefield, unit_id: str) -> None:
    if not state.has_unit(unit_id):
        raise UnknownIdError(f"no unit {unit_id!r}")


# --------------------------------------------------------------- the context
class MoveContext:
    """The facts a move is judged against, taken from the state before it.

    Attributes
    ----------
    ids : list of model ids of the moving unit, in order.
    fixed : {model id: enemy model id} models in base contact with an enemy
        (pile-in and ongoing consolidation: they cannot be moved).
    target : {model id: unit or objective id} each model's closest target.
    aim : {model id: model or objective id} the closest model of that target.
    start_dist : {model id: inches} distance to that target before moving.
    start_engaged : {model id: frozenset of enemy unit ids} engaged at the start.
    problems : spec-level violations (no target, a target that is not an enemy).

    Raises
    ------
    UnknownIdError
        For an unknown unit, target unit or objective.
    IllegalMoveError
        For an unknown move kind.
    """

    def __init__(self, state: Battlefield, geo: Geometry, spec: MoveSpec):
        if spec.kind not in KINDS:
            raise IllegalMoveError(f"unknown move kind {spec.kind!r}: use one of {', '.join(KINDS)}")
        _need_unit(state, spec.unit)
        self.state, self.geo, self.spec = state, geo, spec
        self.rules = state.rules
        self.tol = state.rules.tol
        self.sec = spec.section
        self.unit = state.unit(spec.unit)
        self.player = self.unit.player
        self.ids = [m.id for m in self.unit.models]
        self.models: dict[str, Model] = {m.id: m for m in self.unit.models}
        self.start = {m.id: (m.x, m.y) for m in self.unit.models}
        self.problems: list[Violation] = []
        self.objective: Objective | None = None
        self._check_targets()
        self.local = self._neighbourhood()
        # Obstacles built for the routes (``reach.obstacles_for``), by model id and position
        self.obstacle_memo: dict[tuple[str, float, float], Any] = {}
        # ``cohere.repair_spots`` by model, friends near and goals
        self.repair_memo: dict[tuple, np.ndarray] = {}
        self.fixed: dict[str, str] = {}
        if spec.kind in ("pile_in", "ongoing"):
            for mid in self.ids:
                contacts = geo.contacts_of(mid, enemies=True)
                if contacts:
                    self.fixed[mid] = contacts[0]
        self.start_engaged: dict[str, frozenset[str]] = {}
        for mid in self.ids:
            self.start_engaged[mid] = frozenset(
                geo.unit_of[geo.index_of(e)] for e in geo.engaged_models(mid))
        self.target: dict[str, str] = {}
        self.aim: dict[str, str] = {}
        self.start_dist: dict[str, float] = {}
        self._parts: dict[str, tuple] = {}
        self._centres: dict[str, np.ndarray | None] = {}
        # ``gaps_at`` of one point, by model, point and target
        self._gap_memo: dict[tuple[str, float, float, str], np.ndarray] = {}
        if not self.problems:
            self._closest_targets()

    # ------------------------------------------------------------ set-up
    def _check_targets(self) -> None:
        spec, state = self.spec, self.state
        what = "pile-in target" if spec.kind == "pile_in" else "selected enemy unit"
        if spec.kind == "objective":
            if len(spec.targets) != 1:
                self.problems.append(self._unit_violation(
                    f"objective consolidation selects one objective, got {len(spec.targets)}"))
                return
            try:
                self.objective = state.objective(spec.targets[0])
            except KeyError:
                raise UnknownIdError(f"no objective {spec.targets[0]!r}") from None
            return
        if not spec.targets:
            if spec.kind == "pile_in":
                msg = (f"{spec.unit} has no pile-in target: not engaged and no enemy unit within "
                       f"{self.rules.pile_in_target_range:g}\"")
            else:
                msg = f"{spec.unit} has no selected enemy unit"
            self.problems.append(self._unit_violation(msg))
            return
        for t in spec.targets:
            if not state.has_unit(t):
                raise UnknownIdError(f"no unit {t!r}")
            if state.unit(t).player == self.player:
                self.problems.append(self._unit_violation(f"{what} {t} is not an enemy unit"))

    def _neighbourhood(self) -> Battlefield:
        """The state cut down to the units a move can touch (whole units): the
        moving unit, its targets, and every unit with a model within
        ``NEIGHBOURHOOD`` of it (a move's checks read nothing farther)."""
        r = self.rules
        reach = (self.spec.max_distance + max(r.pile_in_target_range, CONSOLIDATION_MODE_RANGE)
                 + max(r.engagement_range, r.coherency_range or 0.0) + NEIGHBOURHOOD)
        mine = np.array([m.at for m in self.unit.models], dtype=float)
        others = [u for u in self.state.units
                  if not (u.id == self.unit.id or u.id in self.spec.targets) and u.models]
        near: set[str] = set()
        if others:
            # every other unit's models at once: the nearest to the moving unit, unit by unit
            xy = np.array([m.at for u in others for m in u.models], dtype=float).reshape(-1, 2)
            d = np.hypot(xy[:, None, 0] - mine[None, :, 0],
                         xy[:, None, 1] - mine[None, :, 1]).min(axis=1)
            firsts = np.cumsum([0] + [len(u.models) for u in others[:-1]])
            nearest = np.minimum.reduceat(d, firsts).tolist()
            for u, dmin in zip(others, nearest):
                if dmin <= reach + max(m.base.radius for m in u.models):
                    near.add(u.id)
        keep = [u for u in self.state.units
                if u.id == self.unit.id or u.id in self.spec.targets or u.id in near]
        return replace(self.state, units=tuple(keep))

    def _unit_violation(self, text: str) -> Violation:
        return Violation(None, self.spec.rule, f"{text} ({self.sec})")

    def _closest_targets(self) -> None:
        geo = self.geo
        if self.objective is not None:
            o = self.objective
            self._parts[o.id] = (np.array([Point(*o.at)], dtype=object),
                                 np.array([o.marker.radius]), [o.id])
            for mid in self.ids:
                self.target[mid] = o.id
                self.aim[mid] = o.id
                self.start_dist[mid] = geo.distance(mid, o.id)
            return
        for t in set(self.spec.targets) | {u for s in self.start_engaged.values() for u in s}:
            self._parts_for(t)
        for mid in self.ids:
            best: str | None = None
            best_d = float("inf")
            for t in self.spec.targets:          # ties (TIE_DECIMALS): the first in spec order
                d = geo.distance(mid, t)
                if best is None or tie(d) < tie(best_d):
                    best, best_d = t, d
            # spec.targets is not empty here: _check_targets reports an empty one as a problem
            assert best is not None
            self.target[mid] = best
            self.start_dist[mid] = best_d
            gaps = ties(self.gaps_at(mid, [self.start[mid]], best)[0])
            self.aim[mid] = self.target_models(best)[int(np.argmin(gaps))]

    # ------------------------------------------------------------ measuring
    def target_models(self, target: str) -> list[str]:
        """Model ids of a target unit (or ``[objective id]``)."""
        return list(self._parts_for(target)[2])

    def gaps_at(self, mid: str, points, target: str) -> np.ndarray:
        """Signed gaps, shape (n points, n target models): model ``mid`` placed at each point.

        One point is remembered by model, point and target (a solve asks about
        the same end positions again and again: each pass's quality, each
        coherency round); the array returned is then read-only."""
        if len(points) == 1:
            p = points[0]
            key = (mid, float(p[0]), float(p[1]), target)
            hit = self._gap_memo.get(key)
            if hit is None:
                hit = self._gap_memo[key] = self._gaps_at(mid, points, target)
                hit.setflags(write=False)
            return hit
        return self._gaps_at(mid, points, target)

    def _gaps_at(self, mid: str, points, target: str) -> np.ndarray:
        m = self.models[mid]
        tc, tp, _ = self._parts_for(target)
        centres = self._centres.get(target)
        if m.base.is_round and centres is not None:
            # round against round: centre distance less the radii (exact, no Shapely)
            xy = np.asarray(points, dtype=float).reshape(-1, 2)
            return np.hypot(xy[:, None, 0] - centres[None, :, 0],
                            xy[:, None, 1] - centres[None, :, 1]) - m.base.radius - tp[None, :]
        cores, pad = cores_at(m.base, m.facing_deg, points)
        return shapely.distance(cores[:, None], tc[None, :]) - pad - tp[None, :]

    def _parts_for(self, target: str):
        if target not in self._parts:
            ids = self.geo.unit_models(target)
            parts = [core_of(m.base, m.facing_deg, m.at) for m in map(self.state.model, ids)]
            self._parts[target] = (np.array([c for c, _ in parts], dtype=object),
                                   np.array([p for _, p in parts], dtype=float), ids)
        if target not in self._centres:
            cores, pads, _ = self._parts[target]
            self._centres[target] = (np.array([(c.x, c.y) for c in cores], dtype=float)
                                     .reshape(-1, 2)
                                     if all(c.geom_type == "Point" and p > 0
                                            for c, p in zip(cores, pads)) else None)
        return self._parts[target]

    def dist_at(self, mid: str, points, target: str | None = None) -> np.ndarray:
        """Distance (inches, >= 0) from ``mid`` at each point to a target (default its closest)."""
        g = self.gaps_at(mid, points, target or self.target[mid])
        return np.maximum(0.0, np.minimum.reduce(g, axis=1))

    def engaged_at(self, mid: str, points, unit_id: str) -> np.ndarray:
        """Whether ``mid`` at each point is engaged with enemy unit ``unit_id`` (rules range)."""
        return self._engaged_by(self.dist_at(mid, points, unit_id))

    def _engaged_by(self, d: np.ndarray) -> np.ndarray:
        """``engaged_at`` from the distances (inches) to the enemy unit."""
        if self.rules.engages_by_contact:
            return np.asarray(tolmod.in_contact(d, self.tol), dtype=bool)
        return np.asarray(tolmod.within(d, self.rules.engagement_range, self.tol), dtype=bool)

    def in_range_at(self, mid: str, points) -> np.ndarray:
        """Objective mode: whether ``mid`` at each point is within range of the objective."""
        assert self.objective is not None      # called in objective mode only
        rng = self.state.objective_range(self.objective)
        return np.asarray(tolmod.within(self.dist_at(mid, points), rng, self.tol), dtype=bool)

    def achieved_at(self, mid: str, points) -> np.ndarray:
        """The "if possible" goal at each point: engaged with the closest target
        (pile-in, ongoing, engaging) or within range of the objective."""
        if self.objective is not None:
            return self.in_range_at(mid, points)
        return self.engaged_at(mid, points, self.target[mid])

    def measure_at(self, mid: str, points) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``dist_at``, ``achieved_at`` and ``contact_at`` at once (one measuring):
        arrays (n,) of inches, bools, bools."""
        d = self.dist_at(mid, points)
        if self.objective is not None:
            rng = self.state.objective_range(self.objective)
            return (d, np.asarray(tolmod.within(d, rng, self.tol), dtype=bool),
                    np.zeros(len(d), dtype=bool))
        contact = np.asarray(tolmod.in_contact(d, self.tol), dtype=bool)
        if self.rules.engages_by_contact:
            return d, contact, contact
        return d, np.asarray(tolmod.within(d, self.rules.engagement_range, self.tol),
                             dtype=bool), contact

    def contact_at(self, mid: str, points) -> np.ndarray:
        """Whether ``mid`` at each point is in base contact with its closest target unit."""
        if self.objective is not None:
            return np.zeros(len(points), dtype=bool)
        return np.asarray(tolmod.in_contact(self.dist_at(mid, points), self.tol), dtype=bool)

    def ok_at(self, mid: str, points, dist: np.ndarray | None = None) -> np.ndarray:
        """The per-model clauses at each point (the move's end, if it ended there).

        12.03 / 12.08 ongoing and engaging: closer to the closest target;
        12.03 / 12.08 ongoing: still engaged with every enemy unit it started
        engaged with.  Objective: within range of the objective, or closer.
        ``dist``: ``dist_at(mid, points)`` when the caller has it already.
        """
        d0 = self.start_dist[mid]
        d = self.dist_at(mid, points) if dist is None else dist
        ok = tolmod.closer_all(d, d0, self.tol)
        if self.objective is not None:
            return ok | self.in_range_at(mid, points)
        if self.spec.kind in ("pile_in", "ongoing"):
            for u in self.start_engaged[mid]:
                if u == self.target[mid]:
                    ok &= self._engaged_by(d)   # its closest target: ``d`` measured already
                else:
                    ok &= self.engaged_at(mid, points, u)
        return ok

    def goal_range(self) -> float:
        """How near the target counts as the "if possible" goal: engagement range
        (0 for base contact) or the objective's range, inches."""
        if self.objective is not None:
            return self.state.objective_range(self.objective)
        return max(0.0, self.rules.engagement_range)

    def out_of_reach(self, mid: str, goal: str | None = None) -> bool:
        """No path of at most the maximum distance can reach the goal range: the
        gap can shrink by no more than the distance moved."""
        if goal is None:
            d = self.start_dist[mid]
        else:
            d = float(self.dist_at(mid, [self.start[mid]], goal)[0])
        return not tolmod.within(d - self.spec.max_distance, self.goal_range(), self.tol)

    def movable(self) -> list[str]:
        """Models that may move (not fixed in base contact), nearest to their target first."""
        return sorted((m for m in self.ids if m not in self.fixed),
                      key=lambda m: (tie(self.start_dist.get(m, 0.0)), self.ids.index(m)))
