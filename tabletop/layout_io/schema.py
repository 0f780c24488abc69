"""Pydantic models of the 40kdc-data layout JSON (``schemas/core/terrain-layout``,
``deployment-pattern`` and ``terrain-template`` .schema.json; field names as there).

Only validation lives here: every problem is reported with its JSON path
(``[0].pieces[1].position.x``) by ``read``.  Coordinates are inches, y-down, origin at
the table's top-left corner, as the schema states.  A layout and a deployment pattern
refuse fields they do not define (the schemas say ``additionalProperties: false``); a
template keeps only the fields a map needs (a catalog entry carries many more).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from tabletop.board.limits import MAX_TERRAIN

__all__ = ["Vec2", "Footprint", "Piece", "TerrainLayout", "Zone", "DeploymentPattern",
           "TerrainTemplate", "ComposedFeature", "GameVersion"]

EntityId = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*[a-z0-9]$", min_length=2,
                                max_length=128)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False, strict=True)


class Vec2(_Strict):
    """A point in inches, y-down."""
    x: float
    y: float


class Rectangle(_Strict):
    """Axis-aligned rectangle, min corner at the local origin (width along x, height along y)."""
    type: Literal["rectangle"]
    width: float = Field(gt=0)
    height: float = Field(gt=0)


class RightTriangle(_Strict):
    """Right angle at the local origin, legs along +x (width) and +y (height)."""
    type: Literal["right-triangle"]
    width: float = Field(gt=0)
    height: float = Field(gt=0)


class Polygon(_Strict):
    type: Literal["polygon"]
    points: list[Vec2] = Field(min_length=3)


Footprint = Annotated[Rectangle | RightTriangle | Polygon, Field(discriminator="type")]
ZoneShape = Annotated[Rectangle | Polygon, Field(discriminator="type")]


class GameVersion(BaseModel):
    model_config = ConfigDict(extra="allow")
    edition: str = Field(pattern=r"^\d{1,2}(th)?$")
    dataslate: str = Field(pattern=r"^(\d{4}-q[1-4]|[a-z0-9][a-z0-9-]*[a-z0-9])$")


class ObjectiveMeta(_Strict):
    position: Vec2 | None = None
    control_range_inches: float | None = Field(default=None, gt=0)


class Piece(_Strict):
    """One placed piece: ``position`` is its footprint's area centroid (board inches, or
    the parent area's centroid-local frame for a feature with ``parent_area_id``)."""
    id: EntityId | None = None
    name: str | None = Field(default=None, min_length=1, max_length=128)
    piece_type: Literal["area", "feature"] = "area"
    terrain: bool = True
    template: EntityId | None = None
    footprint: Footprint | None = None
    position: Vec2
    rotation_degrees: float = Field(default=0.0, ge=0, lt=360)
    mirror: Literal["none", "horizontal", "vertical"] = "none"
    parent_area_id: EntityId | None = None
    floor: int = Field(default=0, ge=0)
    height_inches: float | None = Field(default=None, ge=0)
    terrain_area_keywords: list[str] | None = None
    link_group: str | None = Field(default=None, min_length=1, max_length=64)
    objective_role: Literal["home", "expansion", "center"] | None = None
    is_objective: bool = False
    objective: ObjectiveMeta | None = None
    keystones: list[dict[str, Any]] | None = None


class Board(_Strict):
    width: float = Field(gt=0)
    height: float = Field(gt=0)


class TerrainLayout(_Strict):
    id: EntityId
    name: str = Field(min_length=1, max_length=128)
    source: str | None = None
    description: str | None = None
    mission_matchup_id: EntityId | None = None
    variant: int | None = Field(default=None, ge=1)
    deployment_pattern_id: EntityId | None = None
    board: Board | None = None
    pieces: list[Piece] = Field(default=[], max_length=MAX_TERRAIN)   # the map's own limit
    game_version: GameVersion


class Zone(_Strict):
    """A deployment zone: ``shape`` relative to ``position`` (y-down inches)."""
    player: Literal["attacker", "defender"]
    name: str | None = Field(default=None, min_length=1, max_length=128)
    shape: ZoneShape
    position: Vec2
    color: str | None = Field(default=None, pattern=r"^#[0-9a-fA-F]{6}$")


class Territory(_Strict):
    player: Literal["attacker", "defender"]
    shape: ZoneShape
    position: Vec2


class DeploymentPattern(_Strict):
    id: EntityId
    name: str = Field(min_length=1, max_length=128)
    source: str | None = None
    description: str | None = None
    zones: list[Zone] = Field(min_length=1)
    territories: list[Territory] = []
    objectives: list[Vec2] = []
    recommended_terrain_layout_ids: list[EntityId] = []
    game_version: GameVersion


class ComposedFeature(_Strict):
    """A feature an area template carries (``terrain-template`` ``composed-feature``):
    ``position`` is the feature's centroid in the area's centroid-local frame (y-down
    inches); placing the area places it, carried by the area's turn and mirror."""
    id: EntityId | None = None
    template: EntityId
    position: Vec2
    rotation_degrees: float = Field(default=0.0, ge=0, lt=360)
    mirror: Literal["none", "horizontal", "vertical"] = "none"
    floor: int = Field(default=0, ge=0)


class TerrainTemplate(BaseModel):
    """A catalog piece a layout's ``template`` names (only the fields a map needs, and an
    area's composed ``features``)."""
    model_config = ConfigDict(extra="ignore", allow_inf_nan=False, strict=True)
    id: EntityId
    name: str | None = None
    kind: Literal["area", "feature"]
    footprint: Footprint
    default_height_inches: float | None = Field(default=None, ge=0)
    features: list[ComposedFeature] = []
