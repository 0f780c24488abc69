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

When the map's folder cannot be written (read-only, full) the autosave goes to a per-user
folder instead (``app.autosave_place.fallback_path``) and the panel says where; ``where``
is always the file that holds the board's moves, or None when none could be written, and
the quit question says so ("they will be lost") rather than promise an autosave.

On opening, leftover temporary files of a killed window's autosave writes are removed
(``autosave_place.remove_leftovers``), and ``offer()`` says when an autosave newer than the
map is there (a crash, or a quit that left moves unsaved; beside the map or in the
fallback folder, the newer) and ``a`` loads it.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from dataclasses import replace

from tabletop.app.autosave_keep import KeptAutosave
from tabletop.app.autosave_place import (
    AUTOSAVE_SUFFIX,
    autosave_path,
    fallback_path,
    make_fallback_folder,
    remove_leftovers,
)
from tabletop.board import mapfile
from tabletop.board.state import Battlefield
from tabletop.board.writes import write_atomic
from tabletop.errors import TabletopError
from tabletop.rules.map_checks import load_checked

__all__ = ["AUTOSAVE_SUFFIX", "Unsaved", "autosave_path"]

YES_KEYS = ("y",)
NO_KEYS = ("n", "escape")


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
        self.autosave = autosave_path(path) if path else None   # beside the map
        self.where: str | None = None   # the file holding the board's moves (None: no file)
        self.autosave_error: str | None = None      # the last autosave problem said
        self.save_error: str | None = None          # why the last s failed (the hint says it)
        self.save_hint: Callable[[], str] | None = None     # the editor: where its s writes
        self.save_target: Callable[[], str | None] | None = None    # ... its file, to test
        # the map's folder (real path) when the autosave could not be written there: s,
        # which writes beside the map, would fail there too (the questions do not offer it)
        self.unwritable: str | None = None
        self.kept = KeptAutosave()      # the autosave rewritten in the map's words, when idle
        if self.autosave:               # a killed window's temporary files (autosave_place)
            remove_leftovers(self.autosave)
            remove_leftovers(fallback_path(self.autosave))

    def dirty(self, state: Battlefield) -> bool:
        """Whether ``state`` differs from the state last loaded or saved."""
        return state is not self.clean and state != self.clean

    # ------------------------------------------------------------ changes
    def changed(self, state: Battlefield) -> str | None:
        """The board is now ``state`` (a move, an undo, a reload): write the autosave, or
        remove it when the board is back to ``clean``.

        The autosave goes beside the map; when that fails, to ``fallback_path`` (a
        per-user folder).  Returns a message when it could not go beside the map (where
        it went instead, or that no file holds the moves), once per distinct problem; the
        board is kept and the map is never touched.  ``where`` is the file written.
        """
        if not self.dirty(state):
            self.moves = 0
            self.discard_autosave()
            return None
        self.moves += 1
        if self.autosave is None:
            return None
        keep = (self.path,) if self.path else ()
        try:
            # written afresh (tomli-w, fast) at once; rewritten in the map's own words once
            # the window is idle (``tick``, ``app.autosave_keep``)
            data = mapfile.dumps(state)
            write_atomic(self.autosave, data, force=True, keep=keep)
        except TabletopError as exc:        # the board cannot be written at all
            return self._no_file(f"autosave {self.autosave}: cannot write: {exc}")
        except OSError as exc:
            beside = f"autosave {self.autosave}: cannot write: {exc}"
            self.unwritable = os.path.realpath(os.path.dirname(os.path.abspath(self.autosave)))
        else:
            if self.where and self.where != self.autosave:     # the folder is writable again
                self._remove(self.where)
            self.where, self.autosave_error = self.autosave, None
            self.unwritable = None
            self.kept.written()
            return None
        fallback = fallback_path(self.autosave)
        try:
            make_fallback_folder()
            write_atomic(fallback, data, force=True, keep=keep)
        except (OSError, TabletopError) as exc:
            return self._no_file(f"{beside}; nor {fallback}: {exc}")
        self.where = fallback
        self.kept.written()
        return self._say(f"{beside}; the moves are kept in {fallback} instead "
                         f"(offered on the next opening; a loads it)")

    def _no_file(self, said: str) -> str | None:
        """No file holds the board's moves: the next quit question says they will be lost
        (a worker rewriting an older autosave is stopped)."""
        self.where = None
        self.kept.discarded()
        return self._say(f"{said}: no file holds the moves (quitting loses them)")

    def _say(self, said: str) -> str | None:
        """``said``, unless it was the last autosave problem said (one message, not one
        per move)."""
        if said == self.autosave_error:
            return None
        self.autosave_error = said
        return said

    def save_failed(self, said: str) -> None:
        """``s`` could not write (``said``: its message): the questions' hint says so
        instead of offering ``s`` as if it worked."""
        self.save_error = said

    def saved(self, state: Battlefield) -> None:
        """``state`` was saved to a file: nothing is unsaved, the autosave goes."""
        self.clean = state
        self.moves = 0
        self.save_error = None
        self.discard_autosave()

    def loaded(self, state: Battlefield) -> None:
        """The map was read again: it is the new clean state (the undo stack keeps what
        was on the board, so the autosave stays until the board is clean)."""
        self.clean = state

    def tick(self, busy: bool = False) -> None:
        """One frame of the window: the autosave's rewrite in the map's words goes on
        (``KeptAutosave.tick``; ``busy``: a drag or press is held, the window is not idle)."""
        self.kept.tick(self.where, self.path, busy)

    def input(self) -> None:
        """The person pressed, moved or wheeled: the window is not idle."""
        self.kept.input()

    def close(self) -> None:
        """The window closes: the autosave, when there is one, is left in the map's words
        (``KeptAutosave.close``: the rewrite finished now, else the fast copy stays)."""
        self.kept.close(self.where, self.path)

    def discard_autosave(self) -> None:
        """Remove the autosave, beside the map and in the fallback folder (the board is
        saved, or back as loaded)."""
        self.kept.discarded()
        self.where = None
        if self.autosave:
            self._remove(self.autosave)
            self._remove(fallback_path(self.autosave))

    @staticmethod
    def _remove(path: str) -> None:
        with contextlib.suppress(OSError):      # gone already, or a read-only folder
            if os.path.isfile(path) and not os.path.islink(path):
                os.remove(path)

    # ------------------------------------------------------------ asking
    def guard(self, what: str, state: Battlefield, action: Callable[[], None]) -> str | None:
        """Run ``action`` now if ``state`` holds nothing unsaved; else hold it and return
        the question to show (``what``: "quit", "reload", ...)."""
        if not self.dirty(state):
            action()
            return None
        self.pending = (what, action)
        kept = f" ({self.kept_text()})" if what == "quit" else \
            " (u brings the moves back; no file keeps them)" if what == "reload" else ""
        blocked = self.save_blocked()
        if self.save_error:
            hint = f"s failed: {self.save_error}"
        elif blocked:
            # s would write where the autosave could not: not offered; where the moves are
            # instead (the quit question has said it already)
            hint = f"s cannot save: {blocked} cannot be written"
            if what != "quit":
                hint += (f"; the moves are kept in {self.where}" if self.where else
                         "; no file holds the moves")
        else:
            hint = (self.save_hint() if self.save_hint else None) or "s saves them to a new file"
        return f"{what} with unsaved moves? y: {what}{kept}, n: keep the board ({hint})"

    def save_blocked(self) -> str | None:
        """The folder ``s`` would write in (the editor's ``save_target``, else beside the
        map), when it is the map's folder and the autosave could not be written there (a
        read-only folder or file system, a full disk): ``s`` would fail the same way, so
        the questions do not offer it.  None when ``s`` may work."""
        if self.unwritable is None:
            return None
        target = (self.save_target() if self.save_target else None) or self.path
        if not target:
            return None
        folder = os.path.dirname(os.path.abspath(target))
        return folder if os.path.realpath(folder) == self.unwritable else None

    def kept_text(self) -> str:
        """Where the board's moves are once the window closes: the autosave beside the map
        (its name), the fallback (its full path), or no file ("they will be lost")."""
        if self.where is None:
            why = "the autosave cannot be written" if self.autosave else "no autosave"
            return f"{why}: the moves are in no file and will be lost"
        if self.where == self.autosave:
            return f"the moves stay in {os.path.basename(self.where)}"
        return f"the moves stay in {self.where}: the map's folder cannot be written"

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
    def found(self) -> str | None:
        """The autosave newer than the map, beside it or in the fallback folder (the newer
        of the two), or None."""
        a = self.autosave
        if not a or not self.path or not os.path.isfile(self.path):
            return None
        newest, when = None, os.path.getmtime(self.path)
        for p in (a, fallback_path(a)):
            with contextlib.suppress(OSError):
                if os.path.isfile(p) and os.path.getmtime(p) > when:
                    newest, when = p, os.path.getmtime(p)
        return newest

    def offer(self) -> str | None:
        """A message when an autosave newer than the map is there (``found``; ``a`` loads
        it): its name beside the map, its full path in the fallback folder."""
        a = self.found()
        if a is None:
            return None
        name = os.path.basename(a) if a == self.autosave else a
        return f"an autosave newer than the map is there: {name} (a: load it; the map is not changed)"

    def load_autosave(self) -> Battlefield:
        """The state in the autosave.

        Raises
        ------
        TabletopError
            There is no autosave, or it does not load or fails a map check (one line per
            problem, ``rules.map_checks.load_checked``).
        """
        a = self.found() or self.autosave
        if not a or not os.path.isfile(a):
            raise TabletopError("no autosave beside this map")
        # the checks a command makes of a map (``rules.map_checks``), as ``r`` makes
        return replace(load_checked(a), path=self.path)
