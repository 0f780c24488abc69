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
from tabletop.render.view import View
from tabletop.rules.move_check import CHECK_KINDS, MoveCheck, MoveSetup, check_move, move_setup

XY = tuple[float, float]

WINDOW_CONSOLIDATION_FOUGHT = True
OFFENDER_RING_PX = 8
RING_WIDTH_PX = 3
BAD_COLOUR = (235, 70, 60)
GOOD_COLOUR = (90, 210, 110)
START_COLOUR = (230, 230, 230)


class MoveChecker:
    """Start positions, the rules' set-up of each unit's move (cached), the last verdict."""

    def __init__(self, origin: Battlefield):
        self.origin = origin
        self.result: MoveCheck | None = None
        self._setups: dict[tuple, MoveSetup | TabletopError] = {}

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

    def setup(self, start: Battlefield, unit_id: str, kind: str) -> MoveSetup:
        """The rules' set-up of the move from ``start`` (cached while nothing else moves).

        Raises
        ------
        TabletopError
            The map's ruleset has no such move.
        """
        key = (unit_id, kind, tuple((m.id, m.x, m.y) for u in start.units for m in u.models))
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

    def pile_in_limit(self, state: Battlefield, model_id: str) -> tuple[XY, float] | None:
        """(start of ``model_id``, the pile-in maximum distance) when its unit may pile in
        from its start, else None."""
        unit_id = model_id.rsplit("/", 1)[0]
        try:
            setup = self.setup(self.start_state(state, unit_id), unit_id, "pile_in")
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
