"""Every file the project writes goes through here: nothing the user wrote is lost.

``write_atomic(path, data, force=...)`` writes bytes or text; ``atomic_target(path,
force=...)`` hands a writer that needs a file name (Pillow, pygame, imageio) a
temporary file to write into.  Either way:

- the data goes to a temporary file of its own, made in the target's folder by
  ``tempfile.mkstemp`` (created exclusively, a unique name, never a file that was
  already there and never followed through a link planted under that name);
- it is flushed and ``fsync``-ed, then renamed into place (``os.replace``), so a
  crash leaves either the old file or the new one whole, never half of one;
- on any error (or an interrupt) the temporary file is removed;
- an existing target is only replaced with ``force`` (the CLI's ``--force``);
  without it the rename is exclusive (``os.link``), so a file that appears
  meanwhile is not overwritten either;
- the file a command read (``keep``) is never written, not even with ``force``.

A link at the target's name is replaced by the new file, never written through.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterable, Iterator

from tabletop.errors import TabletopError

__all__ = ["OutputExistsError", "atomic_target", "write_atomic", "TEMP_SUFFIX"]

TEMP_SUFFIX = ".tmp"
"""Marks the temporary files (``.<name>-<random>.tmp<ext>``), so a stray one left by a
killed process is recognisable; the random part makes it never a user's file."""

NEW_FILE_MODE = 0o666
"""Permissions of a new output file before the umask (what ``open(path, "w")`` gives);
a replaced file keeps its own."""


class OutputExistsError(TabletopError, FileExistsError):
    """The output file exists and overwriting it was not asked for (or it is the input).

    A ``TabletopError`` (the CLI prints its one line and exits 2) and a
    ``FileExistsError`` (code that asks the OS-level question still catches it)."""


def _same(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _check(path: str, force: bool, keep: Iterable[str]) -> None:
    for src in keep:
        if src and os.path.exists(path) and _same(path, src):
            raise OutputExistsError(f"{path}: is the file that was read; write to a new file")
    if not force and os.path.lexists(path):
        raise OutputExistsError(f"{path}: already exists; nothing was written "
                                f"(give --force to replace it, or a new name)")


def _mode(path: str) -> int:
    try:
        st = os.lstat(path)
        if stat.S_ISREG(st.st_mode):
            return stat.S_IMODE(st.st_mode)
    except OSError:
        pass
    umask = os.umask(0)
    os.umask(umask)
    return NEW_FILE_MODE & ~umask


def sync_folder(folder: str) -> None:
    """Flush ``folder``'s entries to disk (``fsync`` of the folder), so a rename into it
    survives a crash; a folder that cannot be opened is left as it is."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _publish(tmp: str, path: str, force: bool) -> None:
    """Rename ``tmp`` to ``path``: replacing it with ``force``, else only if it is absent."""
    if force:
        os.replace(tmp, path)
        return
    try:
        os.link(tmp, path)          # fails if path exists, even as a dangling link
    except FileExistsError:
        raise OutputExistsError(f"{path}: already exists; nothing was written "
                                f"(give --force to replace it, or a new name)") from None
    except OSError:
        # a file system without hard links: check, then rename
        if os.path.lexists(path):
            raise OutputExistsError(f"{path}: already exists; nothing was written "
                                    f"(give --force to replace it, or a new name)") from None
        os.replace(tmp, path)
        return
    os.unlink(tmp)


@contextlib.contextmanager
def atomic_target(path: str, *, force: bool, keep: Iterable[str] = ()) -> Iterator[str]:
    """A temporary file name for a writer to fill; on leaving the block it is renamed to
    ``path``.

    Parameters
    ----------
    path : str
        The file to write; its folder must exist (no writer makes folders: the CLI refuses
        a missing one up front with ``cli.output.folder_problem``'s line).
    force : bool
        Replace ``path`` if it exists.
    keep : paths
        Files never written (the command's input), even with ``force``.

    Yields
    ------
    str
        The temporary file (same folder, same extension, already created, empty).

    Raises
    ------
    OutputExistsError
        ``path`` exists and ``force`` is false, or it is one of ``keep``.
    OSError
        The folder is missing or cannot be written.
    """
    keep = tuple(keep)
    _check(path, force, keep)
    folder = os.path.dirname(os.path.abspath(path))
    base = os.path.basename(path)
    ext = os.path.splitext(base)[1]
    fd, tmp = tempfile.mkstemp(prefix=f".{base}-", suffix=TEMP_SUFFIX + ext, dir=folder)
    try:
        try:
            os.fchmod(fd, _mode(path))
        finally:
            os.close(fd)
        yield tmp
        with open(tmp, "rb+") as fh:       # the writer closed it; make it durable
            os.fsync(fh.fileno())
        _check(path, force, keep)
        _publish(tmp, path, force)
        sync_folder(folder)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def write_atomic(path: str, data: bytes | str, *, force: bool, keep: Iterable[str] = ()) -> str:
    """Write ``data`` (text is written as UTF-8) to ``path`` through a temporary file of
    its own, renamed into place (see the module docstring); returns ``path``.

    Raises
    ------
    OutputExistsError
        ``path`` exists and ``force`` is false, or it is one of ``keep`` (the input).
    OSError
        The folder cannot be made or written; the temporary file is removed.
    """
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    with atomic_target(path, force=force, keep=keep) as tmp:
        # O_NOFOLLOW: the temporary file is ours (mkstemp); never follow a link put there
        fd = os.open(tmp, os.O_WRONLY | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
            fh.flush()
    return path
