"""The checks a map passes before anything runs on it: the file's schema (``board.mapfile``,
its ``[[lesson]]`` steps and clauses among them), the ruleset's own profile and weapon checks
(``Ruleset.profile_problems``) and that its shapes can be measured
(``geometry.layout_checks``).

One place for them, so every command (``cli.common.load_map``) and the window (``r``
reload, ``a`` the autosave: ``app.app``) refuse the same map with the same located lines.
The map reader, the geometry and the registry are imported inside the functions: the CLI
imports this module while its parser is built (``tabletop CMD --help`` reads no map).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tabletop.errors import MapValidationError, TabletopError

if TYPE_CHECKING:
    from tabletop.board.state import Battlefield

__all__ = ["MISSING_PROFILE", "decision_name_faults", "load_checked", "ruleset_profile_faults",
           "state_faults"]

#: how the rulesets word a profile value that is absent: a map need not carry profiles (a
#: layout, a measured table); a command that fights says so itself when it needs one
MISSING_PROFILE = ("(needed to make attacks)", "profile has no ")


def ruleset_profile_faults(state: Battlefield, found: Sequence[str] = ()) -> list[str]:
    """The ruleset's own profile and weapon checks (``Ruleset.profile_problems``: a weapon's
    ``WS = "abc"``, ``D = -3``, a bad ``FNP`` ...), places as the map file gives them
    (``units[18].weapons[0].WS``), leaving out absent values (``MISSING_PROFILE``) and places
    already named in ``found``.  When ``found`` holds faults the ruleset's check may trip on
    one of them; it is then skipped (those faults are reported already).

    Returns
    -------
    list of str
        One located line per fault (``file: place: what``), empty when none.
    """
    from tabletop.rules.registry import find_ruleset

    check = find_ruleset(state.ruleset).profile_problems
    if check is None:
        return []
    try:
        lines = check(state)
    except Exception:           # noqa: BLE001 -- only with faults already found (re-raised else)
        if found:
            return []
        raise
    places = {line.split(": ", 2)[1] for line in found if line.count(": ") >= 2}
    return [line for line in lines if not any(m in line for m in MISSING_PROFILE)
            and (line.count(": ") < 2 or line.split(": ", 2)[1] not in places)]


def state_faults(state: Battlefield, found: Sequence[str] = ()) -> list[str]:
    """What ``load_checked`` checks on a built state: the ruleset's profile checks
    (``ruleset_profile_faults``) and the shapes (``geometry.layout_checks.shape_problems``).
    One located line per fault."""
    from tabletop.geometry.layout_checks import shape_problems

    return ruleset_profile_faults(state, list(found)) + decision_name_faults(state) \
        + shape_problems(state)


def decision_name_faults(state: Battlefield) -> list[str]:
    """``[[decisions]]`` names that can never answer (the audit of issue 11: they passed
    ``check`` and were overridden only when the phase ran): a ``gambit`` or ``feint`` value
    that names none of the gambits (gambit-challenge.txt, Gambits), a ``weapon`` value that
    is the name of no weapon of the player's models.  Names compare case-blind and trimmed,
    as the scripted answers are matched.  One located line each
    (``file: decisions[i].value: ...``)."""
    from tabletop.rules.challenges.gambits import GAMBIT_NAMES

    path = state.path or "<map>"
    gambits = {n.strip().lower() for n in GAMBIT_NAMES}
    out: list[str] = []
    for i, d in enumerate(state.decisions):
        if not isinstance(d.value, str):
            continue        # not a name: ``board.decision_checks`` says so
        name = d.value.strip().lower()
        if d.choice in ("gambit", "feint") and name not in gambits:
            out.append(f"{path}: decisions[{i}].value: {d.value!r} is not a gambit ({d.choice} "
                       f"names one of: {', '.join(GAMBIT_NAMES)})")
        elif d.choice == "weapon":
            names = sorted({str(w.get("name", "")) for u in state.units if u.player == d.player
                            for m in u.models for w in m.weapons if w.get("name")})
            if name not in {n.strip().lower() for n in names}:
                out.append(f"{path}: decisions[{i}].value: {d.value!r} is no weapon of "
                           f"{d.player}'s models (weapon names one of: "
                           f"{', '.join(names) or 'none'})")
    return out


def load_checked(path: str) -> Battlefield:
    """Load the map file ``path`` and check everything a command would: the schema, every
    profile and weapon number with its bounds (``board.profile_values`` and the ruleset's
    own checks, so nothing is loaded that ``fight`` would refuse), and that its shapes can
    be measured.  Every fault found is reported at once, each its own located line
    (``maps/x.toml: units[0].profile.Sv: ...``), in map order.

    Raises
    ------
    MapSyntaxError, MapValidationError
        One line per problem (the CLI exits 2; the window shows them and keeps its board).
    """
    from tabletop.board import mapfile

    state, problems = mapfile.load_all(path)
    if state is not None:
        problems = problems + state_faults(state, problems)
    if problems:
        raise MapValidationError(mapfile.in_map_order(_top_order(path), problems))
    assert state is not None
    return state


def _top_order(path: str) -> dict[str, Any]:
    """The map file's top-level tables in file order (for ``in_map_order``)."""
    from tabletop.board import mapfile

    try:
        return mapfile.read_toml(path)
    except TabletopError:
        return {}
