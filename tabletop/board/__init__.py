"""The state: table, terrain, objectives, deployment, players, units, models, bases.

Plain frozen data and the map file's load/save; no geometry, no drawing.
"""

from tabletop.board.bases import Base, parse_base
from tabletop.board.config import RulesConfig, make_config
from tabletop.board.mapfile import dumps, load, save
from tabletop.board.state import (
    Battlefield,
    Decision,
    Deployment,
    Formation,
    Model,
    Objective,
    Player,
    Table,
    Terrain,
    Unit,
)

__all__ = [
    "Base", "Battlefield", "Decision", "Deployment", "Formation", "Model", "Objective", "Player",
    "RulesConfig", "Table", "Terrain", "Unit", "dumps", "load", "make_config", "parse_base",
    "save",
]
