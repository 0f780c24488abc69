"""Checks on a parsed command line that hold for every command (issue 11: bad input).

Kept free of heavy imports: ``cli.main`` runs it after argparse, before the command.
"""

from __future__ import annotations

import argparse
import math

from tabletop.errors import TabletopError

__all__ = ["check_args"]


def _subparser(parser: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser | None:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices.get(command)
    return None


def check_args(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Refuse an empty argument (``-o ''``, ``MAP ''``): a file name, an id or a value
    written as nothing is a slip that would otherwise be ignored or misread; and a number
    option (``type=float``) given as ``nan``, ``inf`` or ``-inf``, which Python's ``float``
    reads but no scale, tolerance or distance can be.  Each command still checks its own
    bounds (``--scale`` at most ``MAX_SIDE_PX``, tolerances at most ``MAX_TABLE_INCHES``).

    Raises
    ------
    TabletopError
        One line, ``tabletop CMD: -o: an empty value; ...`` or ``tabletop CMD: --scale:
        must be a finite number, got inf; ...`` (the CLI exits 2).
    """
    command = getattr(args, "command", None)
    sub = _subparser(parser, command) if command else None
    if sub is None:
        return
    for action in sub._actions:
        value = getattr(args, action.dest, None)
        values = value if isinstance(value, list) else [value]
        if any(isinstance(v, str) and not v.strip() for v in values):
            name = "/".join(action.option_strings) or action.metavar or action.dest.upper()
            raise TabletopError(f"tabletop {command}: {name}: an empty value; give a file name, "
                                f"an id or a value (see tabletop {command} -h)")
        if action.type is float and any(isinstance(v, float) and not math.isfinite(v)
                                        for v in values):
            name = "/".join(action.option_strings) or action.metavar or action.dest.upper()
            bad = next(v for v in values if not math.isfinite(v))
            raise TabletopError(f"tabletop {command}: {name}: must be a finite number, got "
                                f"{bad:g} (see tabletop {command} -h)")
