"""A step's picture built over several frames, so that no frame of the window passes
33 ms while a 1,000-model step appears (issue 11 item 3).

``Build(key, surface, pieces)`` wraps a generator of pieces (``render.steps.step_pieces``:
each yields the work of its next piece before doing it); ``run(budget)`` does pieces
while they fit ``budget`` (a piece is always done when the frame has done none yet) and
tells whether the picture is finished.  The window shows its last picture meanwhile.
Work is counted, never timed.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pygame

__all__ = ["STEP_WORK_PER_FRAME", "Build"]

STEP_WORK_PER_FRAME = 16
"""Named default: the work (``render.steps.BASES_PER_WORK`` units: one unit label placed,
or about 10 bases drawn) the window does in one frame to build a step's picture; a small
table's step (a lesson: the table layer 4, the layout 1, a few labels, one band of 2) is
built in the frame it is asked for, a 1,000-model table's over some 15-25 frames, each
about 10 ms on an idle core (about 20 on this loaded 2-core machine)."""


class Build:
    """The picture ``surface`` for ``key``, drawn by ``pieces`` a frame's share at a time."""

    def __init__(self, key: Any, surface: pygame.Surface, pieces: Iterator[int]):
        self.key = key
        self.surface = surface
        self._pieces = pieces
        self._cost: int | None = None     # the work of the piece it stands before
        self.done = False

    def run(self, budget: int | None) -> bool:
        """Do pieces while ``budget`` allows (None: all; 0: none); whether the picture is done."""
        spent = 0
        if budget is not None and budget <= 0:
            return self.done
        while not self.done:
            if self._cost is None:
                self._cost = self._step()
                if self.done:
                    break
            if budget is not None and spent > 0 and spent + self._cost > budget:
                break
            spent += self._cost
            self._cost = self._step()      # do the piece; its successor's work comes back
        return self.done

    def _step(self) -> int:
        try:
            return next(self._pieces)
        except StopIteration:
            self.done = True
            return 0
