"""Where the window's autosave goes: beside the map, else a per-user folder; and the
temporary files a killed window left behind.

The autosave of ``maps/x.toml`` is ``maps/x.autosave.toml`` (``unsaved.autosave_path``):
the next opening finds it there.  When that folder cannot be written (a read-only folder,
a full disk, a map on a CD or a share mounted read-only) the moves go instead to
``fallback_path``: ``$XDG_STATE_HOME/tabletop/autosave/x-<hash>.autosave.toml``
(``~/.local/state/tabletop/autosave/`` when ``XDG_STATE_HOME`` is not set), the hash
naming the map's full path so two maps called ``x.toml`` never share one.  A per-user
state folder, not the system temp folder: it outlives a reboot (a crash and a restart
lose nothing) and only its user can read it (made ``0700``).  Opening the same map finds
the fallback too (``Unsaved.offer``).

A window killed while an autosave is being written (``board.writes``' temporary file or
``app.autosave_keep``'s worker's) leaves ``.x.autosave.toml-<8 random>.tmp.toml`` in the
autosave's folder.  ``remove_leftovers`` removes, when a window opens the map, exactly such
files of *this* map's autosave: named as ``tempfile.mkstemp`` names them for it, plain
files (not links) of this user, last written before this process started (a window open
on the same map since is still writing its own).  The autosave itself holds the moves of
such a file (the worker's is a copy of it in the map's words; ``write_atomic``'s, if the
kill came before its rename, a move the window had not yet said was kept).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import stat
import time

from tabletop.board.writes import TEMP_SUFFIX

__all__ = ["AUTOSAVE_SUFFIX", "STATE_FOLDER", "autosave_path", "fallback_path",
           "fallback_folder", "leftovers", "remove_leftovers"]

AUTOSAVE_SUFFIX = ".autosave.toml"
"""Named default: the autosave of ``maps/x.toml`` is ``maps/x.autosave.toml``, beside it
(found again on the next opening; the ``-N`` names of ``s`` never take this form)."""

STATE_FOLDER = os.path.join("tabletop", "autosave")
"""Named default: the fallback folder under the user's state folder (``$XDG_STATE_HOME``,
else ``~/.local/state``) when the map's own folder cannot be written."""

PROCESS_STARTED = time.time()
"""When this module was first imported (before the window writes anything): a leftover
temporary file last written before it is not this process's."""

_MKSTEMP_NAME = r"[a-z0-9_]{8}"     # tempfile's random part: 8 of a-z, 0-9 and _


def autosave_path(map_path: str) -> str:
    """``maps/x.toml`` -> ``maps/x.autosave.toml``."""
    stem, _ = os.path.splitext(map_path)
    return stem + AUTOSAVE_SUFFIX


def fallback_folder() -> str:
    """The per-user folder for autosaves that cannot go beside their map:
    ``$XDG_STATE_HOME/tabletop/autosave`` (``~/.local/state/...`` without it)."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "state")
    return os.path.join(base, STATE_FOLDER)


def fallback_path(autosave: str) -> str:
    """The autosave ``maps/x.autosave.toml``'s place in ``fallback_folder()``:
    ``x-<12 hex digits of the SHA-1 of its full path>.autosave.toml``."""
    full = os.path.realpath(autosave)
    name = os.path.basename(full)
    stem = name[:-len(AUTOSAVE_SUFFIX)] if name.endswith(AUTOSAVE_SUFFIX) else name
    digest = hashlib.sha1(full.encode("utf-8", "surrogateescape")).hexdigest()[:12]
    return os.path.join(fallback_folder(), f"{stem}-{digest}{AUTOSAVE_SUFFIX}")


def make_fallback_folder() -> str:
    """Make ``fallback_folder()`` (mode ``0700``) if it is not there; returns it.

    Raises
    ------
    OSError
        It cannot be made.
    """
    folder = fallback_folder()
    os.makedirs(folder, mode=0o700, exist_ok=True)
    return folder


def leftovers(autosave: str, before: float | None = None) -> list[str]:
    """The temporary files a killed window left for ``autosave``: in its folder, named
    ``.<autosave's name>-<8 random>.tmp.toml`` exactly (``board.writes``,
    ``app.autosave_keep``), plain files of this user last written before ``before``
    (seconds since the epoch; ``PROCESS_STARTED`` when None).  An unreadable folder has
    none."""
    if before is None:
        before = PROCESS_STARTED
    folder = os.path.dirname(os.path.abspath(autosave))
    name = os.path.basename(autosave)
    pattern = re.compile(re.escape(f".{name}-") + _MKSTEMP_NAME
                         + re.escape(TEMP_SUFFIX + ".toml"))
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    found = []
    for n in names:
        if not pattern.fullmatch(n):
            continue
        p = os.path.join(folder, n)
        try:
            st = os.lstat(p)
        except OSError:
            continue
        if (stat.S_ISREG(st.st_mode) and st.st_uid == os.geteuid()
                and st.st_mtime < before):
            found.append(p)
    return sorted(found)


def remove_leftovers(autosave: str, before: float | None = None) -> list[str]:
    """Remove ``leftovers(autosave, before)``; returns those removed (one that cannot be
    removed, e.g. in a read-only folder, is left)."""
    gone = []
    for p in leftovers(autosave, before):
        with contextlib.suppress(OSError):
            os.unlink(p)
            gone.append(p)
    return gone
