"""The autosave in the map's own words: rewritten off the frame, once the window is idle.

After every change the window writes the autosave ``<map>.autosave.toml`` (and ``--play``,
after each answer, ``<map>.play-autosave.toml``: ``app.play``) at once, afresh
(``mapfile.dumps``, tomli-w: a few ms at 1,000 models), so a crash loses nothing; that copy
has none of the map's comments or layout.  Editing the map's own document instead
(``mapfile.edited_text``, tomlkit) keeps them but takes ~180 ms of CPU at 1,000 models,
several frames' worth, and cannot be cut in slices (``tomlkit.parse`` is one call).  So it
is done by another process, the window only starting it and renaming its result:

1. the window has been idle for ``IDLE_FRAMES`` frames (no key, button, motion or wheel,
   no drag or press held) since the fast copy was written;
2. ``start``: a temporary file is made beside the autosave (``tempfile.mkstemp``, named as
   ``board.writes`` names its own: ``.<name>-<random>.tmp.toml``) and a worker
   (``python -m tabletop.app.autosave_keep AUTOSAVE MAP TMP``) is started: it loads the
   fast copy, edits the map's document to that state, checks the text loads back to
   exactly it (``edited_text``), writes it into the temporary file and ``fsync``-s it;
3. ``tick``, each frame, asks whether the worker has ended (``Popen.poll``, no wait); when
   it has and the board has not changed since it started, the temporary file is renamed
   over the autosave (``os.replace``: atomic) and the folder synced.  A change meanwhile
   stops the worker and removes its file: the next idle spell starts again.

Nothing is lost at any moment: the autosave is only ever replaced whole by a rename (the
fast copy by ``write_atomic``, the kept one by step 3), and the worker never writes the
autosave, only its own temporary file, which is removed when it is not used (a stray one
left by a killed window is marked ``.tmp`` as ``board.writes``' are, and the next window
opening the map removes it: ``app.autosave_place.remove_leftovers``).  The window's frames
pay only for starting the worker and the rename (``tabletop bench --only window``: the
*autosave* row).  A map whose document cannot be edited to the state (or a worker that
fails) leaves the fast copy, as before.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile

from tabletop.board.writes import TEMP_SUFFIX, sync_folder

__all__ = ["IDLE_FRAMES", "KeptAutosave"]

IDLE_FRAMES = 30
"""Named default: frames with no input (half a second at 60 FPS) after the fast autosave
before it is rewritten in the map's own words (another process: the frame pays ~ms)."""

#: seconds the window, closing, waits for a rewrite under way to end (it takes ~0.2 s)
FINISH_WAIT_S = 5.0

KEPT, CANNOT = 0, 3     # the worker's exit status: written / the document cannot be edited


def _package_root() -> str:
    """The folder holding the ``tabletop`` package this process runs (the worker imports
    the same code, whatever its working folder)."""
    import tabletop
    return os.path.dirname(os.path.dirname(os.path.abspath(tabletop.__file__)))


class KeptAutosave:
    """The rewrite of one window's autosave in its map's words (see the module docstring).

    ``state`` says where it stands: ``"none"`` (no autosave waiting), ``"fast"`` (the
    fast copy is there, the rewrite not started), ``"working"`` (the worker runs),
    ``"kept"`` (the autosave keeps the map's comments and layout) or ``"cannot"`` (the
    map's document cannot be edited to the board: the fast copy stays).
    """

    def __init__(self, idle_frames: int = IDLE_FRAMES):
        self.idle_frames = idle_frames
        self.state = "none"
        self.idle = 0                   # frames with no input since the last change or input
        self.generation = 0             # fast copies written
        self.proc: subprocess.Popen | None = None
        self.tmp: str | None = None
        self._job: tuple[int, str] | None = None    # (generation, autosave) the worker serves
        self._stopped: list[subprocess.Popen] = []  # stopped workers, reaped as they end

    # ------------------------------------------------------------ the window tells it
    def written(self) -> None:
        """A fast copy was written (after a change): the rewrite waits for idle frames."""
        self.generation += 1
        self.stop()
        self.state = "fast"
        self.idle = 0

    def discarded(self) -> None:
        """The autosave was removed (the board is saved, or back as loaded)."""
        self.stop()
        self.state = "none"

    def input(self) -> None:
        """A key, a button, a motion or the wheel: not idle."""
        self.idle = 0

    def tick(self, autosave: str | None, source: str | None, busy: bool = False) -> None:
        """One frame: take a finished worker's result, or count an idle frame (``busy``: a
        drag or a press is held, not idle) and start the worker after ``idle_frames``."""
        self._reap()
        if self.proc is not None:
            if self.proc.poll() is not None:
                self._finish()
            return
        if self.state != "fast" or not autosave or not source:
            return
        if busy:
            self.idle = 0
            return
        self.idle += 1
        if self.idle >= self.idle_frames:
            self.start(autosave, source)

    # ------------------------------------------------------------ the worker
    def start(self, autosave: str, source: str) -> None:
        """Start the worker on the fast copy at ``autosave`` and the map ``source``."""
        if (not os.path.isfile(autosave) or not os.path.isfile(source)
                or os.path.samefile(autosave, source)):     # never the map itself
            self.state = "cannot"
            return
        tmp = self._temp_beside(autosave)
        if tmp is None:
            self.state = "cannot"
            return
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(
            [_package_root()] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "tabletop.app.autosave_keep", autosave, source, tmp],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, env=env)
        except OSError:
            self._remove(tmp)
            self.state = "cannot"
            return
        self.tmp = tmp
        self._job = (self.generation, autosave)
        self.state = "working"

    def _finish(self) -> None:
        proc, tmp, job = self.proc, self.tmp, self._job
        self.proc = self.tmp = self._job = None
        assert proc is not None and tmp is not None and job is not None
        generation, autosave = job
        if proc.returncode != KEPT or generation != self.generation:
            self._remove(tmp)
            self.state = "cannot" if generation == self.generation else self.state
            return
        self._install(tmp, autosave)

    def stop(self) -> None:
        """Stop a running worker and remove its temporary file (the autosave is untouched:
        the worker never writes it)."""
        if self.proc is not None:
            with contextlib.suppress(OSError):
                self.proc.terminate()
            self._stopped.append(self.proc)
            self._remove(self.tmp)
            self.proc = self.tmp = self._job = None
        self._reap()

    def close(self, autosave: str | None = None, source: str | None = None) -> None:
        """The window closes: the autosave is brought into the map's words now when it is
        not yet (``finish_now``, given the autosave and the map), then every worker still
        running is stopped and waited for."""
        if autosave and source:
            self.finish_now(autosave, source)
        self.stop()
        for p in self._stopped:
            with contextlib.suppress(subprocess.TimeoutExpired, OSError):
                p.wait(timeout=5)
        self._stopped = []

    def finish_now(self, autosave: str, source: str) -> None:
        """On the way out (``q`` then ``y``, the close button, SIGTERM): a worker under
        way is waited for (at most ``FINISH_WAIT_S``) and its result renamed into place; a
        fast copy not yet rewritten is rewritten here, in this process (``rewrite``: ~0.2 s
        of CPU at 1,000 models, paid once, when no frame is waiting), into a temporary file
        of its own renamed over the autosave.  Either way the autosave the window leaves
        keeps the map's comments and layout, or stays the fast copy when the document
        cannot be edited to the board; it is only ever replaced whole."""
        if self.proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired, OSError):
                self.proc.wait(timeout=FINISH_WAIT_S)
            if self.proc.poll() is not None:
                self._finish()
            return
        if self.state != "fast" or not os.path.isfile(autosave) or not os.path.isfile(source) \
                or os.path.samefile(autosave, source):
            return
        tmp = self._temp_beside(autosave)
        if tmp is None:
            return
        if rewrite(autosave, source, tmp) != KEPT:
            self._remove(tmp)
            self.state = "cannot"
            return
        self._install(tmp, autosave)

    @staticmethod
    def _temp_beside(autosave: str) -> str | None:
        """A temporary file of its own beside ``autosave`` (created exclusively, named as
        ``board.writes`` names its own: ``.<name>-<random>.tmp.toml``, with the autosave's
        mode), or None when the folder cannot take one."""
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(autosave)}-",
                                       suffix=TEMP_SUFFIX + ".toml",
                                       dir=os.path.dirname(os.path.abspath(autosave)))
            try:
                os.fchmod(fd, os.stat(autosave).st_mode & 0o777)
            finally:
                os.close(fd)
        except OSError:
            return None
        return tmp

    def _install(self, tmp: str, autosave: str) -> None:
        """Rename the rewritten ``tmp`` over ``autosave`` (atomic) and sync the folder: the
        autosave now keeps the map's words; when the rename fails the fast copy stays."""
        try:
            os.replace(tmp, autosave)
        except OSError:
            self._remove(tmp)
            self.state = "cannot"
            return
        sync_folder(os.path.dirname(os.path.abspath(autosave)))
        self.state = "kept"

    def _reap(self) -> None:
        self._stopped = [p for p in self._stopped if p.poll() is None]

    @staticmethod
    def _remove(tmp: str | None) -> None:
        if tmp:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)


def _header(text: str) -> str:
    """The ``#`` comment lines ``text`` starts with (each ending in a newline), or "": the
    header ``mapfile.save`` puts over a file (a ``--play`` run's autosave has one;
    ``mapfile.dumps`` writes none)."""
    lines = text.splitlines(keepends=True)
    n = 0
    while n < len(lines) and lines[n].startswith("#"):
        n += 1
    return "".join(lines[:n])


def rewrite(autosave: str, source: str, tmp: str) -> int:
    """The worker: write into ``tmp`` (made by the window; never created here, so a file
    the window removed meanwhile is not made again) the map ``source``'s document edited
    to the state the fast copy ``autosave`` loads to, under the fast copy's own ``#``
    header lines when it has some (``app.play``'s autosave: the text ``mapfile.save``
    writes for ``s``), and ``fsync`` it.

    Returns
    -------
    int
        ``KEPT`` (0) written; ``CANNOT`` (3) the document cannot be edited to exactly that
        state, or a file cannot be read or written (the fast copy stays).
    """
    from tabletop.board import mapfile
    from tabletop.errors import TabletopError

    try:
        state = mapfile.load(autosave)
        text = mapfile.edited_text(state, source)
        if text is None:
            return CANNOT
        head = _header(mapfile.map_text(autosave))
        if head:                    # the fast copy's own header (a --play run's) on top
            text = head + "\n" + text
        fd = os.open(tmp, os.O_WRONLY | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "wb") as fh:
            fh.write(text.encode("utf-8"))
            fh.flush()
            os.fsync(fh.fileno())
    except (OSError, TabletopError):
        return CANNOT
    return KEPT


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(f"usage: {sys.executable} -m tabletop.app.autosave_keep AUTOSAVE MAP TMP")
    sys.exit(rewrite(*sys.argv[1:]))
