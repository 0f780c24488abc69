"""Read a file a command was given, bounded (issue 11 item 6: bad input never crashes).

Every file tabletop reads from the user - a map, a roster, layout JSON, a ``--check``
move - goes through ``read_bounded``: only a regular file is opened (a FIFO would wait for
a writer forever, ``/dev/zero`` never ends, a socket or a device may block), refused from
its ``stat`` before any read, and the read itself stops one byte past the file kind's size
limit, so no file can take unbounded time or memory.  The board layer is the bottom of the
import order (board -> geometry -> rules -> render -> app/cli), so every reader can use it.
"""

from __future__ import annotations

import os
import stat

from tabletop.errors import MapSyntaxError, TabletopError

__all__ = ["read_bounded", "strip_bom", "BOM"]

#: the UTF-8 byte-order mark some Windows editors write at a file's start (U+FEFF decoded)
BOM = "\ufeff"


def strip_bom(text: str) -> str:
    """``text`` without a leading byte-order mark (U+FEFF): Notepad and Excel write one at
    the start of a UTF-8 file; it is no part of the text, and TOML and JSON readers refuse it."""
    return text[1:] if text.startswith(BOM) else text


def read_bounded(path: str, what: str, limit: int, limit_name: str,
                 error: type[TabletopError] = MapSyntaxError) -> bytes:
    """The bytes of ``path``, a regular file of at most ``limit`` bytes.

    Parameters
    ----------
    path : str
        The file named on the command line.
    what : str
        What the file should be, for the messages ("map file", "roster file").
    limit : int
        The most bytes read; ``limit_name`` is the named default it comes from, shown in
        the message so a reader can find it in the README's "Limits" table.
    error : type
        The ``TabletopError`` subclass raised (one line naming the file, exit 2).

    Raises
    ------
    error
        Missing, a folder, not a regular file (a FIFO, a device, a socket), over ``limit``
        bytes, or unreadable: one line ``path: what is wrong``.
    """
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    except (OSError, ValueError) as exc:
        raise error(f"{path}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    if stat.S_ISDIR(st.st_mode):
        raise error(f"{path}: is a folder, not a {what}")
    if not stat.S_ISREG(st.st_mode):
        raise error(f"{path}: is not a regular file (a pipe or a device); give a {what}")
    if st.st_size > limit:
        raise error(f"{path}: is {st.st_size:,} bytes; a {what} is at most "
                    f"{limit:,} bytes ({limit_name})")
    try:
        # O_NONBLOCK: a FIFO swapped in since the stat opens at once instead of waiting
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):   # swapped since the stat
                raise error(f"{path}: is not a regular file (a pipe or a device); give a {what}")
            data = fh.read(limit + 1)
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise error(f"{path}: a {what} is at most {limit:,} bytes ({limit_name})")
    return data
