"""The window's move check: ``v`` / ``V`` judge a unit's dragged models as a pile-in
or a consolidation (fight-phase.txt 12.03, 12.08), and the drag reads its distance
against the pile-in limit.

``MoveChecker`` holds no pygame state apart from ``draw``; ``App`` owns one.
The start of a move is where the unit's models stood when the map was loaded
or last reloaded (``origin``); every other unit stands where it is now, so
an enemy moved by hand first is met where it was put.  The move is set up
and judged by ``rules.move_check`` (the ruleset's own move, then the
validator); each model's path is the straight line from its start
(``CHECK_PATHS``).

Named defaults:

``WINDOW_CONSOLIDATION_FOUGHT = True``
    The window has no phase history, so ``V`` takes the unit as having been
    eligible to fight this phase (``consolidate --fought``): a unit that has
    wiped out its foe can still be checked consolidating onto an objective.
``OFFENDER_RING_PX = 8``
    The red ring round an offending model sits this many pixels outside its
    base, clear of the selected unit's outline.
"""

from __future__ import annotations

import math

import pygame

from tabletop.board.state import Battlefield
from tabletop.errors import TabletopError
from tabletop.geometry import Geometry
from tabletop.render.view import View
from tabletop.rules.move_check import CHECK_KINDS, MoveCheck, MoveSetup, check_move, move_setup
from tabletop.rules.registry import find_ruleset

XY = tuple[float, float]

WINDOW_CONSOLIDATION_FOUGHT = True
OFFENDER_RING_PX = 8
RING_WIDTH_PX = 3
BAD_COLOUR = (235, 70, 60)
GOOD_COLOUR = (90, 210, 110)
START_COLOUR = (230, 230, 230)


def _load_ruleset(state: Battlefield) -> None:
    """Import the map's ruleset now, as the window opens, not on the first drag (the
    drag's pile-in limit asks the ruleset; importing it takes longer than a frame).  An
    unknown ruleset is left for ``setup`` to report."""
    try:
        find_ruleset(state.ruleset)
    except ValueError:
        pass


def _keep_snapshot(state: Battlefield, geo: Geometry) -> None:
    """Keep ``geo`` (``state``'s snapshot) with ``state`` the way the fight-phase rules
    keep theirs (``rules.fight_phase.context.geometry`` reads a table's ``_geometry``
    first), so setting a move up from it builds no snapshot of its own.  A table is
    frozen: its snapshot never goes stale."""
    if "_geometry" not in state.__dict__:
        object.__setattr__(state, "_geometry", geo)


class MoveChecker:
    """Start positions, the rules' set-up of each unit's move (cached), the last verdict."""

    def __init__(self, origin: Battlefield):
        self.origin = origin
        self.result: MoveCheck | None = None
        self._setups: dict[tuple, MoveSetup | TabletopError] = {}
        _load_ruleset(origin)


    def reset(self, origin: Battlefield) -> None:
        """The map was (re)loaded: its positions are the new start of every move."""
        self.origin = origin
        self.result = None
        self._setups.clear()

    # ------------------------------------------------------------ the rules
    def start_state(self, state: Battlefield, unit_id: str) -> Battlefield:
        """``state`` with ``unit_id``'s models back where the map put them."""
        now = {m.id for m in state.unit(unit_id).models}
        return state.with_positions({m: xy for m, xy in self.starts(unit_id).items() if m in now})

    def starts(self, unit_id: str) -> dict[str, XY]:
        """Where the map put ``unit_id``'s models ({} for a unit it did not have)."""
        if not self.origin.has_unit(unit_id):
            return {}
        return {m.id: m.at for m in self.origin.unit(unit_id).models}

    def setup(self, start: Battlefield, unit_id: str, kind: str,
              geo: tuple[Battlefield, Geometry] | None = None) -> MoveSetup:
        """The rules' set-up of the move from ``start`` (cached while nothing else moves).

        ``geo``: a table and its snapshot that ``start`` differs from only in
        ``unit_id``'s models (the window's: ``start`` puts that unit back where the map
        had it); the rules then read a snapshot derived from it (``Geometry.moved``, the
        pairs of that unit's moved models measured again) instead of building one of
        the whole table.

        Raises
        ------
        TabletopError
            The map's ruleset has no such move.
        """
        key = (unit_id, kind, tuple((m.id, m.x, m.y) for u in start.units for m in u.models))
        if key not in self._setups and geo is not None:
            now, g = geo
            moved = [m.id for m in start.unit(unit_id).models if m.at != now.model(m.id).at] \
                if start.has_unit(unit_id) and now.has_unit(unit_id) else None
            _keep_snapshot(start, g.moved(start, moved))
        if key not in self._setups:
            try:
                self._setups[key] = move_setup(
                    start, unit_id, kind,
                    fought=WINDOW_CONSOLIDATION_FOUGHT if kind == "consolidate" else False)
            except TabletopError as exc:
                self._setups[key] = exc
        got = self._setups[key]
        if isinstance(got, TabletopError):
            raise got
        return got

    def check(self, state: Battlefield, unit_id: str, kind: str) -> MoveCheck:
        """Judge ``unit_id``'s positions in ``state`` as its ``kind`` move from its start.

        Raises
        ------
        TabletopError
            The map's ruleset has no such move.
        """
        start = self.start_state(state, unit_id)
        setup = self.setup(start, unit_id, kind)
        positions = {m.id: m.at for m in state.unit(unit_id).models}
        self.result = check_move(start, setup, positions)
        return self.result

    def pile_in_limit(self, state: Battlefield, model_id: str,
                      geo: Geometry | None = None) -> tuple[XY, float] | None:
        """(start of ``model_id``, the pile-in maximum distance) when its unit may pile in
        from its start, else None.  ``geo``: ``state``'s snapshot, to derive the start's
        from (``setup``)."""
        unit_id = model_id.rsplit("/", 1)[0]
        try:
            setup = self.setup(self.start_state(state, unit_id), unit_id, "pile_in",
                               geo=(state, geo) if geo is not None else None)
        except TabletopError:
            return None
        if not setup.eligible:
            return None
        origin = self.starts(unit_id).get(model_id, state.model(model_id).at)
        return origin, float(setup.max_distance)

    # ------------------------------------------------------------ words
    @staticmethod
    def report(check: MoveCheck) -> str:
        """The panel entry: the verdict, then each broken clause (or each model's move)."""
        s = check.setup
        if not s.eligible:
            return f"check: {s.unit} {CHECK_KINDS[s.kind]}: not eligible\n  {s.refusal}"
        lines = [f"check: {check.headline()}"]
        if check.legal:
            lines += [f"  {m}" for m in check.move_lines()] or ["  no model moved"]
            lines.append("  the validator finds no broken clause")
        else:
            lines += [f"  {v}" for v in check.lines()]
        return "\n".join(lines)

    # ------------------------------------------------------------ drawing
    def draw(self, surface: pygame.Surface, view: View, state: Battlefield) -> None:
        """The last verdict over the board: each moved model's straight path from its
        start (green, red for an offender), its start marked, a red ring round each
        model a broken clause names."""
        c = self.result
        if c is None or not c.setup.eligible:
            return
        bad = set(c.offenders)
        for m, path in c.paths.items():
            colour = BAD_COLOUR if m in bad else GOOD_COLOUR
            pts = [view.to_screen(x, y) for x, y in path]
            pygame.draw.lines(surface, colour, False, pts, 2)
            sx, sy = pts[0]
            pygame.draw.circle(surface, START_COLOUR, (int(sx), int(sy)), 4, 1)
        for m in bad:
            x, y = view.to_screen(*c.end[m])
            r = view.length(state.model(m).base.radius)
            pygame.draw.circle(surface, BAD_COLOUR, (int(x), int(y)),
                               int(math.ceil(r)) + OFFENDER_RING_PX, RING_WIDTH_PX)
