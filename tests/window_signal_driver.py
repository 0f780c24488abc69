"""Run ``tabletop view MAP`` (``edit``) or ``tabletop view MAP --play --seed N`` (``play``)
in this process with unsaved work, then say ``ready`` on standard output: the harness
``tests/test_window_sigterm.py`` then sends SIGTERM.

``edit``: at the first frame the map's first model is moved 1" along +x, as a drag would
(``App.edit``: the undo stack, the autosave).  ``play``: the first question is answered
with its default, as Enter would.  ``ready`` is printed once the autosave holds that work.

Usage: ``python tests/window_signal_driver.py edit|play MAP [SEED]`` (SDL_VIDEODRIVER=dummy).
"""

from __future__ import annotations

import os
import sys

from tabletop.app import app as app_mod
from tabletop.cli import main

MODE, MAP = sys.argv[1], sys.argv[2]
SEED = sys.argv[3] if len(sys.argv) > 3 else "2"
_update = app_mod.App.update
_done: list[str] = []


def _update_then_work(self, dt: float) -> None:
    _update(self, dt)
    if _done:
        return
    if MODE == "edit":
        m = next(iter(self.state.models()))
        self.edit(self.state.with_models([m.moved_to(m.x + 1.0, m.y)]), f"moved {m.id}")
        _done.append("moved")
    elif self.play is not None and self.play.question is not None:
        self.play.answer(self.play.question.default_index)
        _done.append("answered")
        return
    if _done:
        print("ready", flush=True)


def _poll_ready(self, dt: float) -> None:
    _update_then_work(self, dt)
    play = self.play
    if MODE == "play" and _done == ["answered"] and play is not None and play._autosaved:
        _done.append("autosaved")
        print("ready", flush=True)


app_mod.App.update = _poll_ready     # type: ignore[method-assign]
os.environ.setdefault("TABLETOP_SCREEN_SIZE", "1400x900")
argv = ["view", MAP] + (["--play", "--seed", SEED] if MODE == "play" else [])
sys.exit(main(argv))
