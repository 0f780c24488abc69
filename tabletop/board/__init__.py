"""The state: table, terrain, objectives, deployment, players, units, models, bases.

Plain frozen data and the map file's load/save; no geometry, no drawing.

The names below are re-exported lazily (PEP 562 ``__getattr__``): importing one small
module of the package (``tabletop.board.config``, ``tabletop.board.limits``) does not load
the map reader and its schema, so a command's ``--help`` stays fast (issue 11 item 4).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

#: each re-exported name and the module of the package that defines it
_HOME = {
    "Base": "bases", "parse_base": "bases",
    "RulesConfig": "config", "make_config": "config",
    "dumps": "mapfile", "load": "mapfile", "save": "mapfile",
    **{name: "state" for name in ("Battlefield", "Decision", "Deployment", "Formation", "Model",
                                  "Objective", "Player", "Table", "Terrain", "Unit")},
}

__all__ = [
    "Base", "Battlefield", "Decision", "Deployment", "Formation", "Model", "Objective", "Player",
    "RulesConfig", "Table", "Terrain", "Unit", "dumps", "load", "make_config", "parse_base",
    "save",
]


def __getattr__(name: str) -> Any:
    """A re-exported name, imported from its module on first use.

    Raises
    ------
    AttributeError
        When ``name`` is not one of ``__all__`` (nor a submodule, which the import system
        then loads).
    """
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'tabletop.board' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"tabletop.board.{home}"), name)
    globals()[name] = value
    return value
