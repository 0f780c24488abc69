"""Helpers shared by the commands: load a map, check ids, write an output map, print JSON.

Every command imports this module while its parser is built (``tabletop CMD --help``), so
the map reader and the geometry are imported inside the functions that use them, never at
the top (issue 11 item 4: each command imports what it uses, when it runs)."""

from __future__ import annotations

import json
import os
import re
import sys
from typing import TYPE_CHECKING, Any

from tabletop.board.limits import MAX_SEED
from tabletop.cli.output import cannot_write
from tabletop.errors import TabletopError, UnknownIdError

if TYPE_CHECKING:
    from tabletop.board.state import Battlefield

#: named default: the window sizes ``--size`` takes (pixels), as ``tabletop lesson`` does: a
#: window smaller than 320x200 cannot show the board and its panel; pygame cannot make one
#: over 8K (7680x4320) on most displays and would shrink or fail
MIN_WINDOW_PX = (320, 200)
MAX_WINDOW_PX = (7680, 4320)


# the map checks every command runs (and the window's reload) live in one place, the rules
# layer (``rules.map_checks``), so both refuse a map with the same lines; these names call
# them there (imported when called: ``--help`` imports no rules)
MISSING_PROFILE = ("(needed to make attacks)", "profile has no ")   # = map_checks.MISSING_PROFILE


def ruleset_profile_faults(state: Battlefield, found: list[str] = ()) -> list[str]:
    """``rules.map_checks.ruleset_profile_faults``: the ruleset's own profile checks."""
    from tabletop.rules import map_checks
    return map_checks.ruleset_profile_faults(state, found)


def state_faults(state: Battlefield, found: list[str] = ()) -> list[str]:
    """``rules.map_checks.state_faults``: the profile and shape checks of a built state."""
    from tabletop.rules import map_checks
    return map_checks.state_faults(state, found)


def load_map(path: str) -> Battlefield:
    """Load ``path`` and check everything a command would (``rules.map_checks.load_checked``:
    the schema, every profile and weapon number with its bounds, the ruleset's own checks,
    the shapes).  Every fault found is reported at once, each its own located line, in map
    order.

    Raises
    ------
    MapSyntaxError, MapValidationError
        One line per problem (the CLI exits 2).
    """
    from tabletop.rules import map_checks
    return map_checks.load_checked(path)


def check_seed(seed: int | None, flag: str = "--seed", command: str = "") -> None:
    """Refuse a negative dice seed, as ``[map] seed`` is refused (``board.schema``): a seed
    is a whole number from 0 (``random`` would quietly take -3 as 3).

    Raises
    ------
    TabletopError
        One line (the CLI exits 2).
    """
    said = f"{command}: {flag}" if command else flag       # "tabletop fight: --seed"
    if seed is not None and seed < 0:
        raise TabletopError(f"{said} {seed}: the dice seed is a whole number from 0")
    if seed is not None and seed > MAX_SEED:
        raise TabletopError(f"{said} {seed}: the dice seed is at most {MAX_SEED} (MAX_SEED)")


#: named limit: the most Monte Carlo runs ``fight --odds --runs N`` makes (each is a whole
#: phase resolved; 100,000 puts a percentage within about 0.3 points, past any use)
MAX_ODDS_RUNS = 100_000


def check_runs(runs: int | None, flag: str = "--runs", command: str = "") -> None:
    """Refuse a number of Monte Carlo runs outside 1..``MAX_ODDS_RUNS`` (a bound on the work).

    Raises
    ------
    TabletopError
        One line (the CLI exits 2).
    """
    said = f"{command}: {flag}" if command else flag       # "tabletop fight: --runs"
    if runs is not None and not 1 <= runs <= MAX_ODDS_RUNS:
        raise TabletopError(f"{said} {runs}: give a number of runs from 1 to {MAX_ODDS_RUNS:,} "
                            f"(MAX_ODDS_RUNS)")


def need_unit(state: Battlefield, unit_id: str, what: str = "UNIT") -> None:
    if not state.has_unit(unit_id):
        ids = ", ".join(u.id for u in state.units) or "none"
        raise UnknownIdError(f"{state.path}: {what}: no unit {unit_id!r} (units are {ids})")


def check_out(out: str, source: str | None, force: bool = False) -> None:
    """Refuse an output map path before any work is done.

    Raises
    ------
    TabletopError
        ``out`` is the input map, or a folder, or exists and ``force`` is false, or its
        folder is missing (no command makes folders for its output).
    """
    if source and os.path.exists(out) and os.path.samefile(out, source):
        raise TabletopError(f"{out}: -o is the input map; write the result to a new file")
    if os.path.isdir(out):
        raise TabletopError(f"{out}: -o is a folder; give a file name such as {os.path.join(out, 'after.toml')}")
    if not out.lower().endswith(".toml"):
        raise TabletopError(f"{out}: -o writes a map file; give a name ending in .toml")
    from tabletop.cli.output import check_new_output, check_output_folder
    check_output_folder(out)
    check_new_output(out, source, force)


FRAME_NAME = re.compile(r"^\d{3}-.*\.png$")


def check_frames_dir(folder: str) -> None:
    """Make the ``--frames`` folder before any work is done.  The folder itself is made
    when missing, never its parents (``cli.output.folder_problem``'s wording).

    Raises
    ------
    TabletopError
        It names a file, its parent folder is missing, it cannot be made, or it already
        holds frames of another run (mixing two runs' frames would mislead; nothing is
        deleted).
    """
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise TabletopError(f"{folder}: --frames names a file; give a folder for the PNGs")
    if os.path.isdir(folder):
        old = [f for f in os.listdir(folder) if FRAME_NAME.match(f)]
        if old:
            raise TabletopError(f"{folder}: already holds {len(old)} frames of another run "
                                f"(e.g. {sorted(old)[0]}); give a new folder or empty this one")
        return
    parent = os.path.dirname(os.path.abspath(folder))
    if not os.path.isdir(parent):
        what = "is a file, not a folder" if os.path.exists(parent) else "does not exist"
        raise TabletopError(f"{folder}: the folder {parent} {what} "
                            f"(--frames makes the frames folder only, never its parents)")
    try:
        os.mkdir(folder)
    except OSError as exc:
        raise TabletopError(cannot_write(folder, exc, "cannot make the frames folder")) from None


def write_map(state: Battlefield, out: str, source: str | None, force: bool = False) -> str:
    """Write ``state`` to ``out``; never over the input map.

    Raises
    ------
    TabletopError
        When ``out`` is the input map (nothing the user wrote is overwritten)
        or cannot be written.
    """
    from tabletop.board import mapfile

    check_out(out, source, force)
    try:
        mapfile.save(state, out, force=force, source=source)
    except TabletopError:
        raise
    except OSError as exc:
        raise TabletopError(cannot_write(out, exc)) from None
    return out


def print_json(obj: Any) -> None:
    """``obj`` as indented JSON on standard output, written in one piece: ``json.dump`` would
    hand the (escaping) stream millions of small pieces for a large report."""
    sys.stdout.write(json.dumps(obj, indent=2, ensure_ascii=False) + "\n")


def fmt_in(d: float) -> str:
    """Inches to two decimals with the inch mark."""
    return f'{d:.2f}"'
