"""Pydantic models of the map file (docs/map-format.md), used only for validation.

Every problem is collected, with the place in the file written the way a
user reads it (``units[2].models[4]``, indices from 0 as in the file's order).
The validated models are turned into the plain state in ``mapfile``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    field_validator,
    model_validator,
)

from tabletop.board.bases import parse_base
from tabletop.board.config import EDITIONS, FIGHT_ORDERS, RULESETS
from tabletop.board.lesson import LessonIn
from tabletop.board.limits import (
    MAX_ANGLE_DEG,
    MAX_BASE_MM,
    MAX_COORD_INCHES,
    MAX_DECISIONS,
    MAX_MODELS,
    MAX_POLYGON_POINTS,
    MAX_RULE_COUNT,
    MAX_SEED,
    MAX_TABLE_INCHES,
    MAX_TERRAIN,
    MAX_TEXT_CHARS,
    MAX_UNIT_MODELS,
    MAX_WOUNDS,
)
from tabletop.board.statuses import KNOWN_STATUSES, STATUS_PREFIXES, unknown_statuses

TERRAIN_KINDS = ("ruin", "woods", "obstacle", "impassable", "hill", "building")
ROLES = ("champion", "commander", "standard", "musician")

Number = float


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, allow_inf_nan=False,
                              str_max_length=MAX_TEXT_CHARS)


def _check_base(value: Any) -> Any:
    if value is None:
        return value
    base = parse_base(value)   # raises ValueError with a readable message
    if max(base.along_mm, base.across_mm) > MAX_BASE_MM:
        raise ValueError(f"base {value!r} is over {MAX_BASE_MM:g} mm (MAX_BASE_MM): sizes are "
                         f"millimetres, as \"32mm\"")
    return value


def _profile_move(value: Any) -> Any:
    """A profile's Move (``M`` / ``Move``, any case) is inches a model may move: a negative
    one is a mistake (a map once gave ``M = -6`` and charges were planned with it)."""
    for k, v in (value or {}).items():
        if (str(k).lower() in ("m", "move") and isinstance(v, (int, float))
                and not isinstance(v, bool) and v < 0):
            raise ValueError(f"profile {k} is a distance in inches, not negative (got {v:g})")
    return value


def _short(value: Any) -> str:
    """``value`` shown in a message, cut to 60 characters (a pasted megabyte stays one line)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _point(value: Any, what: str = "a point") -> Any:
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise ValueError(f"{what} is [x, y] in inches, got {_short(value)}")
    for v in value:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise ValueError(f"{what} is [x, y] in inches, got {_short(value)}")
        if not abs(v) <= MAX_COORD_INCHES:      # also NaN
            raise ValueError(f"{what} is [x, y] in inches, each within {MAX_COORD_INCHES:g}\" "
                             f"of the table's corner (MAX_COORD_INCHES), got {_short(value)}")
    return [float(value[0]), float(value[1])]


def _polygon(value: Any) -> Any:
    if not isinstance(value, (list, tuple)) or len(value) < 3:
        raise ValueError(f"a polygon needs at least 3 points [[x, y], ...], got {_short(value)}")
    if len(value) > MAX_POLYGON_POINTS:
        raise ValueError(f"a polygon has at most {MAX_POLYGON_POINTS} points "
                         f"(MAX_POLYGON_POINTS), got {len(value)}")
    points = [_point(p, "each polygon point") for p in value]
    distinct = len({(x, y) for x, y in points})
    if distinct < 3:
        raise ValueError(f"a polygon needs at least 3 distinct points [[x, y], ...], got "
                         f"{distinct} distinct of {len(points)}: {_short(value)}")
    return points


def _angle(value: Any) -> Any:
    """A facing or an angle in degrees, from -MAX_ANGLE_DEG to MAX_ANGLE_DEG."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) \
            and not abs(value) <= MAX_ANGLE_DEG:
        raise ValueError(f"an angle is degrees from -{MAX_ANGLE_DEG:g} to {MAX_ANGLE_DEG:g} "
                         f"(MAX_ANGLE_DEG), got {value!r}")
    return value


#: characters an id may not hold: a control code would act on the terminal or split a
#: message over two lines; "/" joins a unit id to its model numbers (``<unit id>/<n>``)
def _id(value: Any, what: str = "an id") -> Any:
    if isinstance(value, str):
        bad = next((ch for ch in value if ord(ch) < 0x20 or 0x7f <= ord(ch) < 0xa0), None)
        if bad is not None:
            raise ValueError(f"{what} cannot hold a control character ({bad!r}), got {value!r}")
    return value


def _no_slash(value: Any, what: str) -> Any:
    if isinstance(value, str) and "/" in value:
        raise ValueError(f"{what} cannot contain '/', got {value!r} (model ids are "
                         f"<unit id>/<n>)")
    return value


class MapMeta(_Strict):
    name: str
    ruleset: str
    width: float
    depth: float
    source: str | None = None
    seed: StrictInt | None = None       # the dice seed of the run the map's [[decisions]] record

    @field_validator("seed")
    @classmethod
    def _seed(cls, v: int | None) -> int | None:
        if v is not None and v < 0:
            raise ValueError(f"the dice seed is a whole number from 0, got {v}")
        if v is not None and v > MAX_SEED:
            raise ValueError(f"the dice seed is at most {MAX_SEED} (MAX_SEED), got {v}")
        return v

    @field_validator("ruleset")
    @classmethod
    def _ruleset(cls, v: str) -> str:
        if v not in RULESETS:
            raise ValueError(f"unknown ruleset {v!r}: use one of {', '.join(RULESETS)}")
        return v

    @field_validator("width", "depth")
    @classmethod
    def _positive(cls, v: float) -> float:
        if not v > 0:
            raise ValueError(f"the table size must be positive inches, got {v:g}")
        if v > MAX_TABLE_INCHES:
            raise ValueError(f"the table size is inches; {v:g}\" is more than {MAX_TABLE_INCHES:g}\" (100 feet)")
        return v


#: the [rules] options that are counts or distances (every int and float option of
#: ``RulesIn``): true/false is refused for each (``coherency_spread`` takes false as "off")
NUMBER_OPTIONS = ("charge_walls_max_share", "contact_tolerance", "engagement_range", "coherency_range",
                  "coherency_neighbours", "coherency_neighbours_7plus", "pile_in_distance",
                  "pile_in_target_range", "consolidate_distance", "objective_range",
                  "target_selections_tried", "rank_min_models", "roll_modifier_cap",
                  "layout_tolerance", "layout_turn_tolerance", "roster_frontage",
                  "roster_model_gap", "roster_unit_gap", "roster_min_model_gap",
                  "terrain_overlap_area")


class RulesIn(_Strict):
    edition: str | None = None
    contact_tolerance: float | None = Field(default=None, ge=0.0, le=1.0)
    engagement_range: float | Literal["contact"] | None = None
    coherency_range: float | Literal["formation"] | None = None
    coherency_neighbours: int | None = Field(default=None, ge=0, le=MAX_RULE_COUNT)
    coherency_neighbours_7plus: int | None = Field(default=None, ge=0, le=MAX_RULE_COUNT)
    coherency_spread: float | Literal["off"] | bool | None = None
    pile_in_distance: float | None = Field(default=None, ge=0.0, le=MAX_TABLE_INCHES)
    pile_in_target_range: float | None = Field(default=None, ge=0.0, le=MAX_TABLE_INCHES)
    consolidate_distance: float | None = Field(default=None, ge=0.0, le=MAX_TABLE_INCHES)
    objective_range: float | None = Field(default=None, ge=0.0, le=MAX_TABLE_INCHES)
    challenges: str | None = None
    target_selections_tried: int | None = Field(default=None, ge=1, le=MAX_RULE_COUNT)
    rank_min_models: int | None = Field(default=None, ge=1, le=MAX_RULE_COUNT)
    engaged_at_step_start_keeps_eligible: StrictBool | None = None
    fight_order_first: str | None = None
    charge_arc_tie: Literal["roll", "front-edge centre"] | None = None
    close_up: Literal["flush", "square"] | None = None
    disgraced_hit_roll: Literal["halved-ws", "unchanged"] | None = None
    gambit_attacks: Literal["profile", "weapon"] | None = None
    devastating_wounds: Literal["no-save", "mortal"] | None = None
    roll_modifier_cap: int | None = Field(default=None, ge=0, le=MAX_RULE_COUNT)
    layout_tolerance: float | None = Field(default=None, ge=0.0, le=MAX_TABLE_INCHES)
    layout_turn_tolerance: float | None = Field(default=None, ge=0.0, le=180.0)
    charge_blocking_kinds: list[Literal["ruin", "woods", "obstacle", "impassable", "hill", "building"]] | None = None
    charge_ruin_walls: Literal["non-infantry", "all", "none"] | None = None
    charge_landing_roll: Literal["median", "needed"] | None = None
    charge_needs_front_arc: StrictBool | None = None
    charge_avoid_undeclared: StrictBool | None = None
    charge_land_on_walls: StrictBool | None = None
    charge_walls_max_share: float | None = Field(default=None, ge=0.0, le=1.0)
    extra_statuses: list[str] | None = None
    charge_landing_aim: Literal["engage", "path"] | None = None
    charge_landing_turn: StrictBool | None = None
    pile_in_prefers_engaged: StrictBool | None = None
    roster_frontage: int | None = Field(default=None, ge=1)
    roster_model_gap: float | None = Field(default=None, ge=0.0, le=2.0)
    roster_unit_gap: float | None = Field(default=None, ge=0.0)
    roster_min_model_gap: float | None = Field(default=None, ge=0.0, le=2.0)
    terrain_overlap_area: float | None = Field(default=None, ge=0.0, le=MAX_TABLE_INCHES)

    @field_validator(*NUMBER_OPTIONS, mode="before")
    @classmethod
    def _not_a_bool(cls, v: Any) -> Any:
        # bool is an int in Python and pydantic's lax mode reads true as 1: a count or a
        # distance written true/false is a mistake, never a number
        if isinstance(v, bool):
            raise ValueError(f"must be a number, not true/false (got {str(v).lower()})")
        return v

    @field_validator("engagement_range")
    @classmethod
    def _engagement_range(cls, v: Any) -> Any:
        if isinstance(v, (int, float)) and v < 0:
            raise ValueError(f"engagement_range is a distance in inches, not negative (got {v:g})")
        return v

    @field_validator("engagement_range", "coherency_range", "coherency_spread")
    @classmethod
    def _distance(cls, v: Any) -> Any:
        # the distances that also take a word: a number is inches from 0 to the largest table
        if isinstance(v, float) and not 0.0 <= v <= MAX_TABLE_INCHES:
            raise ValueError(f"must be inches from 0 to {MAX_TABLE_INCHES:g}, got {v:g}")
        return v

    @field_validator("fight_order_first")
    @classmethod
    def _fight_order(cls, v: str | None) -> str | None:
        if v is not None and v not in FIGHT_ORDERS:
            raise ValueError(f"unknown fight order {v!r}: use \"active\" or \"non-active\"")
        return v

    @field_validator("edition")
    @classmethod
    def _edition(cls, v: str | None) -> str | None:
        if v is not None and v not in EDITIONS:
            raise ValueError(f"unknown edition {v!r}: use \"11th\" or \"10th\"")
        return v

    @field_validator("challenges")
    @classmethod
    def _challenges(cls, v: str | None) -> str | None:
        if v is not None and v not in ("gambit", "character"):
            raise ValueError(f"unknown challenges option {v!r}: use \"gambit\" (fight-phase) or \"character\" (rank-and-flank)")
        return v


class PlayerIn(_Strict):
    id: str = Field(min_length=1)
    colour: str | None = None
    active: bool = False
    name: str | None = None

    _pid = field_validator("id")(lambda v: _id(v, "a player id"))

    @field_validator("colour")
    @classmethod
    def _colour(cls, v: str | None) -> str | None:
        if v is None:
            return v
        s = v.lstrip("#")
        if len(s) not in (3, 6) or any(c not in "0123456789abcdefABCDEF" for c in s):
            raise ValueError(f"a colour is \"#rrggbb\", got {v!r}")
        return v


class RectIn(_Strict):
    centre: list[float]
    width: float = Field(gt=0, le=MAX_TABLE_INCHES)
    depth: float = Field(gt=0, le=MAX_TABLE_INCHES)
    angle: float = 0.0

    _centre = field_validator("centre", mode="before")(lambda v: _point(v, "a rect centre"))
    _turn = field_validator("angle")(_angle)


class TerrainIn(_Strict):
    id: str = Field(min_length=1)
    kind: str
    polygon: list[list[float]] | None = None
    rect: RectIn | None = None
    name: str | None = None
    tall_part: list[list[float]] | None = None   # optional: the part over 4" tall (walls)

    _tid = field_validator("id")(lambda v: _no_slash(_id(v, "a terrain id"), "a terrain id"))

    _poly = field_validator("polygon", "tall_part", mode="before")(
        lambda v: None if v is None else _polygon(v))

    @field_validator("kind")
    @classmethod
    def _kind(cls, v: str) -> str:
        if v not in TERRAIN_KINDS:
            raise ValueError(f"unknown terrain kind {v!r}: use one of {', '.join(TERRAIN_KINDS)}")
        return v

    @model_validator(mode="after")
    def _one_shape(self) -> TerrainIn:
        if (self.polygon is None) == (self.rect is None):
            raise ValueError("give exactly one of polygon = [[x, y], ...] or rect = { centre, width, depth, angle }")
        return self


class ObjectiveIn(_Strict):
    id: str = Field(min_length=1)
    at: list[float]
    marker: str = "40mm"
    range: float | None = Field(default=None, ge=0.0, le=MAX_TABLE_INCHES)
    name: str | None = None

    _at = field_validator("at", mode="before")(lambda v: _point(v, "an objective's position"))
    _oid = field_validator("id")(lambda v: _no_slash(_id(v, "an objective id"), "an objective id"))
    _marker = field_validator("marker")(lambda v: _check_base(v))


class DeploymentIn(_Strict):
    player: str
    polygon: list[list[float]]
    name: str | None = None

    _poly = field_validator("polygon", mode="before")(_polygon)


def _model_list(value: Any) -> Any:
    """A model written as [x, y] or [x, y, facing] becomes {at, facing}."""
    if isinstance(value, (list, tuple)):
        if len(value) not in (2, 3) or any(
                isinstance(v, bool) or not isinstance(v, (int, float)) for v in value):
            raise ValueError(f"a model is [x, y] or [x, y, facing], got {_short(list(value))}")
        out: dict[str, Any] = {"at": _point(value[:2], "a model's position")}
        if len(value) == 3:
            out["facing"] = _angle(value[2])
        return out
    if not isinstance(value, dict):
        raise ValueError(f"a model is [x, y], [x, y, facing] or a table with at = [x, y], "
                         f"got {_short(value)}")
    return value


class ModelIn(_Strict):
    at: list[float] | None = None        # None only inside a formation unit
    facing: float | None = None
    name: str | None = None
    role: str | None = None
    wounds_lost: int = Field(default=0, ge=0, le=MAX_WOUNDS)
    base: str | None = None
    profile: dict[str, Any] | None = None
    weapons: list[dict[str, Any]] | None = None
    keywords: list[str] | None = None
    status: list[str] | None = None
    n: int | None = Field(default=None, ge=1, le=MAX_UNIT_MODELS)  # model number in its id (<unit>/<n>); default: place in file order
    file: int | None = Field(default=None, ge=1, le=MAX_UNIT_MODELS)   # formation slot (1-based, left to right)
    rank: int | None = Field(default=None, ge=1, le=MAX_UNIT_MODELS)   # formation slot (1-based, front to back)

    _at = field_validator("at", mode="before")(lambda v: None if v is None else _point(v, "a model's position"))
    _facing = field_validator("facing")(_angle)
    _base = field_validator("base")(lambda v: _check_base(v))
    _move = field_validator("profile")(lambda v: _profile_move(v))

    @model_validator(mode="before")
    @classmethod
    def _from_list(cls, value: Any) -> Any:
        return _model_list(value)

    @field_validator("role")
    @classmethod
    def _role(cls, v: str | None) -> str | None:
        if v is not None and v not in ROLES:
            raise ValueError(f"unknown role {v!r}: use one of {', '.join(ROLES)}")
        return v


class FormationIn(_Strict):
    front_centre: list[float]
    facing: float = 90.0
    files: int = Field(ge=1, le=MAX_UNIT_MODELS)
    ranks: int = Field(ge=1, le=MAX_UNIT_MODELS)
    count: int | None = Field(default=None, ge=1, le=MAX_UNIT_MODELS)

    _fc = field_validator("front_centre", mode="before")(lambda v: _point(v, "front_centre"))
    _facing = field_validator("facing")(_angle)

    @property
    def size(self) -> int:
        """How many models the formation makes: ``count``, else a full ``files x ranks``."""
        return self.count if self.count is not None else self.files * self.ranks

    @model_validator(mode="after")
    def _fits(self) -> FormationIn:
        if self.count is None and self.files * self.ranks > MAX_UNIT_MODELS:
            raise ValueError(
                f"{self.files} files x {self.ranks} ranks make {self.files * self.ranks} models; "
                f"a unit has at most {MAX_UNIT_MODELS} (MAX_UNIT_MODELS)")
        if self.count is not None and self.count > self.files * self.ranks:
            raise ValueError(
                f"count {self.count} does not fit in {self.files} files x {self.ranks} ranks")
        return self


class UnitIn(_Strict):
    id: str = Field(min_length=1)
    player: str
    base: str
    name: str | None = None
    keywords: list[str] = []
    profile: dict[str, Any] = {}
    weapons: list[dict[str, Any]] = []
    charged: bool = False
    status: list[str] = []
    facing: float | None = None
    models: list[ModelIn] | None = Field(default=None, max_length=MAX_UNIT_MODELS)
    formation: FormationIn | None = None

    _base = field_validator("base")(lambda v: _check_base(v))
    _move = field_validator("profile")(lambda v: _profile_move(v))
    _facing = field_validator("facing")(_angle)

    @field_validator("id")
    @classmethod
    def _no_slash(cls, v: str) -> str:
        return _no_slash(_id(v, "a unit id"), "a unit id")

    @field_validator("profile")
    @classmethod
    def _profile(cls, v: dict[str, Any]) -> dict[str, Any]:
        for key, value in v.items():
            if isinstance(value, bool) or not isinstance(value, (int, float, str)):
                raise ValueError(f"profile {key} must be a number, got {_short(value)}")
        return v

    @model_validator(mode="after")
    def _models_or_formation(self) -> UnitIn:
        if self.formation is None:
            if not self.models:
                raise ValueError("a unit needs models = [[x, y], ...] or a formation = { ... }")
            for i, m in enumerate(self.models):
                if m.at is None:
                    raise ValueError(f"models[{i}]: a model needs at = [x, y]")
            numbers: dict[int, int] = {}
            for i, m in enumerate(self.models):
                n = m.n if m.n is not None else i + 1
                if n in numbers:
                    raise ValueError(f"models[{i}]: model number {n} is already models[{numbers[n]}]")
                numbers[n] = i
        else:
            for i, m in enumerate(self.models or []):
                if m.n is not None:
                    raise ValueError(f"models[{i}]: in a formation unit models are numbered by their slot; drop n")
                if m.at is not None:
                    raise ValueError(
                        f"models[{i}]: in a formation unit models are laid out by the formation; "
                        "give file/rank and role, not at")
        return self


class DecisionIn(_Strict):
    player: str
    choice: str
    value: Any = None           # the answer; missing only in a saved --play run (by), see mapfile
    by: Literal["window", "default"] | None = None    # who answered in a saved --play run


class MapIn(_Strict):
    map: MapMeta
    rules: RulesIn = RulesIn()
    players: list[PlayerIn] = []      # may be empty only on a terrain-only map (mapfile._cross_checks)
    terrain: list[TerrainIn] = Field(default=[], max_length=MAX_TERRAIN)
    objectives: list[ObjectiveIn] = []
    deployment: list[DeploymentIn] = []
    units: list[UnitIn] = []
    decisions: list[DecisionIn] = Field(default=[], max_length=MAX_DECISIONS)
    lesson: list[LessonIn] = []         # a lesson map's teaching steps (board/lesson.py)

    @model_validator(mode="after")
    def _known_statuses(self) -> MapIn:
        # board/statuses.py KNOWN_STATUSES: a typo of "advanced" must not pass for a status
        extra = self.rules.extra_statuses or []
        for i, u in enumerate(self.units):
            where = [(f"units[{i}].status", u.status)]
            where += [(f"units[{i}].models[{k}].status", m.status or [])
                      for k, m in enumerate(u.models or [])]
            for loc, words in where:
                bad = unknown_statuses(words, extra)
                if bad:
                    known = ", ".join([*KNOWN_STATUSES, *extra, *(p + "<id>" for p in STATUS_PREFIXES)])
                    raise ValueError(f"{loc}: unknown status {bad[0]!r} on unit {u.id}; known: "
                                     f"{known} ([rules] extra_statuses names more)")
        return self

    @model_validator(mode="after")
    def _model_count(self) -> MapIn:
        total = sum(u.formation.size if u.formation is not None else len(u.models or ())
                    for u in self.units)
        if total > MAX_MODELS:
            raise ValueError(f"the map makes {total} models; a map holds at most {MAX_MODELS} "
                             f"(MAX_MODELS)")
        return self
