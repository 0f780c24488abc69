"""What every command that writes a file shares: the ``--force`` flag and the check,
before any work is done, that the output is new (or ``--force`` was given) and is not
the file the command reads.  The writing itself is ``board.writes`` (a temporary file
of its own, renamed into place)."""

from __future__ import annotations

import errno
import os

from tabletop.errors import TabletopError

__all__ = ["FORCE_HELP", "add_force", "cannot_write", "check_new_output", "check_output_folder",
           "folder_problem", "write_problem"]

FORCE_HELP = "replace the output file if it exists (never the map read)"


def add_force(parser) -> None:
    """Add ``--force`` to a command's parser."""
    parser.add_argument("--force", action="store_true", help=FORCE_HELP)


def check_new_output(out: str, source: str | None, force: bool, flag: str = "-o") -> None:
    """Refuse ``out`` before any work: the input file itself (even with ``force``), or an
    existing file (a link included) without ``force``.

    Raises
    ------
    TabletopError
        One line naming the file (the CLI exits 2).
    """
    if source and os.path.exists(out) and os.path.exists(source) and os.path.samefile(out, source):
        raise TabletopError(f"{out}: {flag} is the input map; write the result to a new file")
    if not force and os.path.lexists(out) and not os.path.isdir(out):
        raise TabletopError(f"{out}: {flag}: already exists; give --force to replace it, "
                            f"or a new name")


def folder_problem(out: str, flag: str = "-o") -> str | None:
    """The one wording every command uses when ``out``'s folder is missing (no command makes
    folders for its output) or is a file: ``x/y.png: the folder /abs/x does not exist (-o
    makes no folders)``; None when the folder is there."""
    folder = os.path.dirname(os.path.abspath(out))
    if os.path.isdir(folder):
        return None
    what = "is a file, not a folder" if os.path.exists(folder) else "does not exist"
    return f"{out}: the folder {folder} {what} ({flag} makes no folders)"


def check_output_folder(out: str, flag: str = "-o") -> None:
    """Raise ``TabletopError`` (one line, the CLI exits 2) with ``folder_problem``'s wording
    when ``out``'s folder is missing or is a file."""
    problem = folder_problem(out, flag)
    if problem:
        raise TabletopError(problem)


def cannot_write(path: str, exc: OSError, doing: str = "cannot write") -> str:
    """The one wording of every write that failed: ``out.toml: cannot write: Read-only file
    system`` (``doing`` may say more: ``cannot make the frames folder``), the reason in the
    system's own words (``strerror``), whichever command wrote."""
    return f"{path}: {doing}: {exc.strerror or exc}"


def _read_only(folder: str) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):     # no statvfs (Windows): say permission denied
        return False


def write_problem(out: str) -> str | None:
    """Before any work is done: ``cannot_write``'s line when ``out`` (or, when it does not
    exist yet, its folder) cannot be written, with the reason the write itself would give
    (``Read-only file system`` on a read-only mount, else ``Permission denied``); None when
    it can.  A missing folder is ``folder_problem``'s."""
    folder = os.path.dirname(os.path.abspath(out))
    if os.access(folder, os.W_OK) and not (os.path.exists(out) and not os.access(out, os.W_OK)):
        return None
    code = errno.EROFS if _read_only(folder) else errno.EACCES
    return cannot_write(out, OSError(code, os.strerror(code)))
