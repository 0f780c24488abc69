"""The window's unsaved moves: ask before losing them, and keep an autosave beside the map.

``Unsaved(path, state)`` remembers the state last loaded or saved (``clean``).  The
window tells it of every change (``changed``): while the board differs from
``clean`` an autosave ``<map>.autosave.toml`` is written beside the map after each
change (``board.writes``: a temporary file of its own renamed into place, so a
crash leaves the previous autosave and the map whole); when the board is back to
``clean`` the autosave is removed.  That copy is written afresh (tomli-w, a few ms); once
the window has been idle a while it is replaced by the map's own document edited to the
board, its comments and layout kept (``app.autosave_keep``: another process does the
edit, the window renames its result into place).  ``guard(what, action)`` runs ``action`` at once
when nothing is unsaved, else holds it and returns a y/n question for the panel;
``answer(key)`` takes ``y`` (run it) or ``n`` / ``Esc`` (keep the board).

On opening, ``offer()`` says when an autosave newer than the map is there (a
crash, or a quit that left moves unsaved) and ``a`` loads it.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from dataclasses import replace

from tabletop.app.autosave_keep import KeptAutosave
from tabletop.board import mapfile
from tabletop.board.state import Battlefield
from tabletop.board.writes import write_atomic
from tabletop.errors import TabletopError
from tabletop.rules.map_checks import load_checked

__all__ = ["AUTOSAVE_SUFFIX", "Unsaved", "autosave_path"]

AUTOSAVE_SUFFIX = ".autosave.toml"
"""Named default: the autosave of ``maps/x.toml`` is ``maps/x.autosave.toml``, beside it
(found again on the next opening; the ``-N`` names of ``s`` never take this form)."""

YES_KEYS = ("y",)
NO_KEYS = ("n", "escape")


def autosave_path(map_path: str) -> str:
    """``maps/x.toml`` -> ``maps/x.autosave.toml``."""
    stem, _ = os.path.splitext(map_path)
    return stem + AUTOSAVE_SUFFIX


class Unsaved:
    """What the window has not saved, the question asked about it, and the autosave.

    Parameters
    ----------
    path : str or None
        The map file (no autosave without one).
    state : Battlefield
        The state as loaded: nothing is unsaved yet.
    """

    def __init__(self, path: str | None, state: Battlefield):
        self.path = path
        self.clean = state
        self.moves = 0                  # changes since the last load or save
        self.pending: tuple[str, Callable[[], None]] | None = None
        self.prompt: str | None = None      # a confirm()'s own question, repeated on other keys
        self.autosave = autosave_path(path) if path else None
        self.autosave_error: str | None = None
        self.save_hint: Callable[[], str] | None = None     # the editor: where its s writes
        self.kept = KeptAutosave()      # the autosave rewritten in the map's words, when idle

    def dirty(self, state: Battlefield) -> bool:
        """Whether ``state`` differs from the state last loaded or saved."""
        return state is not self.clean and state != self.clean

    # ------------------------------------------------------------ changes
    def changed(self, state: Battlefield) -> str | None:
        """The board is now ``state`` (a move, an undo, a reload): write the autosave, or
        remove it when the board is back to ``clean``.  Returns a message when the
        autosave cannot be written (the board is kept; the map is never touched)."""
        if not self.dirty(state):
            self.moves = 0
            self.discard_autosave()
            return None
        self.moves += 1
        if self.autosave is None:
            return None
        try:
            # written afresh (tomli-w, fast) at once; rewritten in the map's own words once
            # the window is idle (``tick``, ``app.autosave_keep``)
            write_atomic(self.autosave, mapfile.dumps(state), force=True,
                         keep=(self.path,) if self.path else ())
            self.kept.written()
        except (OSError, TabletopError) as exc:
            said = f"autosave {self.autosave}: cannot write: {exc}"
            if said != self.autosave_error:
                self.autosave_error = said
                return said
        return None

    def saved(self, state: Battlefield) -> None:
        """``state`` was saved to a file: nothing is unsaved, the autosave goes."""
        self.clean = state
        self.moves = 0
        self.discard_autosave()

    def loaded(self, state: Battlefield) -> None:
        """The map was read again: it is the new clean state (the undo stack keeps what
        was on the board, so the autosave stays until the board is clean)."""
        self.clean = state

    def tick(self, busy: bool = False) -> None:
        """One frame of the window: the autosave's rewrite in the map's words goes on
        (``KeptAutosave.tick``; ``busy``: a drag or press is held, the window is not idle)."""
        self.kept.tick(self.autosave, self.path, busy)

    def input(self) -> None:
        """The person pressed, moved or wheeled: the window is not idle."""
        self.kept.input()

    def close(self) -> None:
        """The window closes: a rewrite still working is stopped (the fast copy stays)."""
        self.kept.close()

    def discard_autosave(self) -> None:
        """Remove the autosave (the board is saved, or back as loaded)."""
        self.kept.discarded()
        if self.autosave:
            with contextlib.suppress(FileNotFoundError):
                if os.path.isfile(self.autosave) and not os.path.islink(self.autosave):
                    os.remove(self.autosave)

    # ------------------------------------------------------------ asking
    def guard(self, what: str, state: Battlefield, action: Callable[[], None]) -> str | None:
        """Run ``action`` now if ``state`` holds nothing unsaved; else hold it and return
        the question to show (``what``: "quit", "reload", ...)."""
        if not self.dirty(state):
            action()
            return None
        self.pending = (what, action)
        kept = f" (the moves stay in {os.path.basename(self.autosave)})" \
            if self.autosave and what == "quit" else ""
        hint = (self.save_hint() if self.save_hint else None) or "s saves them to a new file"
        return f"{what} with unsaved moves? y: {what}{kept}, n: keep the board ({hint})"

    def confirm(self, what: str, question: str, action: Callable[[], None]) -> str:
        """Hold ``action`` until ``y`` answers ``question`` whatever is unsaved (the
        editor writing over an existing file: ``what`` is "overwrite x.toml")."""
        self.pending = (what, action)
        self.prompt = question
        return question

    def answer(self, key: str) -> tuple[bool, str | None]:
        """A key while a question is open: (taken, message).  ``y`` runs the held action,
        ``n`` or ``Esc`` drops it; any other key is taken and the question repeated."""
        if self.pending is None:
            return False, None
        what, action = self.pending
        prompt, self.prompt = self.prompt, None
        if key in YES_KEYS:
            self.pending = None
            action()
            return True, None
        if key in NO_KEYS:
            self.pending = None
            return True, f"{what} cancelled: the board is kept"
        self.prompt = prompt
        return True, (f"{prompt}: press y or n" if prompt else
                      f"{what} with unsaved moves? press y or n")

    # ------------------------------------------------------------ opening
    def offer(self) -> str | None:
        """A message when an autosave newer than the map is beside it (``a`` loads it)."""
        a = self.autosave
        if not a or not self.path or not os.path.isfile(a) or not os.path.isfile(self.path):
            return None
        if os.path.getmtime(a) <= os.path.getmtime(self.path):
            return None
        return (f"an autosave newer than the map is there: {os.path.basename(a)} "
                f"(a: load it; the map is not changed)")

    def load_autosave(self) -> Battlefield:
        """The state in the autosave.

        Raises
        ------
        TabletopError
            There is no autosave, or it does not load or fails a map check (one line per
            problem, ``rules.map_checks.load_checked``).
        """
        if not self.autosave or not os.path.isfile(self.autosave):
            raise TabletopError("no autosave beside this map")
        # the checks a command makes of a map (``rules.map_checks``), as ``r`` makes
        return replace(load_checked(self.autosave), path=self.path)
