"""Open an exported roster by its format and return a ``Roster``.

- ``.ros``: BattleScribe XML.  Read with ``xml.etree.ElementTree`` after refusing any
  ``<!DOCTYPE`` or ``<!ENTITY`` (no entity expansion, no external references).
- ``.rosz``: a zip holding one ``.ros``; its unpacked size is checked before it is read.
- ``.json``: New Recruit's JSON export (the same tree as ``.ros``).
- ``.txt`` (or any text that reads as it): the official 40K app's text export.

Every file is at most ``MAX_ROSTER_BYTES`` (named default: 10 MB, far above any army list,
small enough that a wrong file is refused at once).  Errors are one line naming the file
(``RosterError``, exit 2).
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
import zipfile
import zlib

from pydantic import ValidationError

from tabletop.board.input_files import read_bounded
from tabletop.board.json_text import JsonTextError, parse_json
from tabletop.board.limits import MAX_MODELS, MAX_UNIT_MODELS
from tabletop.errors import TabletopError
from tabletop.roster.app_text import looks_like_app_text, read_app_text
from tabletop.roster.model import Roster
from tabletop.roster.tree import read_tree, xml_to_tree

#: named default: the largest roster file (or unpacked ``.ros`` in a ``.rosz``) read, bytes
MAX_ROSTER_BYTES = 10 * 1024 * 1024


class RosterError(TabletopError):
    """A roster file that cannot be read, or a name the base table does not know."""


def _read_bytes(path: str) -> bytes:
    """``path``'s bytes: a regular file of at most ``MAX_ROSTER_BYTES`` (a FIFO or a device
    refused before any read, ``board.input_files.read_bounded``)."""
    return read_bounded(path, "roster file", MAX_ROSTER_BYTES, "MAX_ROSTER_BYTES", RosterError)


def _unzip(path: str) -> bytes:
    data = _read_bytes(path)         # the zip itself is bounded before it is opened
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            members = [i for i in zf.infolist() if i.filename.lower().endswith(".ros")]
            if len(members) != 1:
                raise RosterError(f"{path}: a .rosz holds one .ros file, this one holds "
                                  f"{len(members)}")
            info = members[0]
            if info.file_size > MAX_ROSTER_BYTES:
                raise RosterError(f"{path}: {info.filename} unpacks to {info.file_size:,} bytes, "
                                  f"more than a roster holds ({MAX_ROSTER_BYTES:,} at most, "
                                  f"MAX_ROSTER_BYTES)")
            with zf.open(info) as fh:
                data = fh.read(MAX_ROSTER_BYTES + 1)
            if len(data) > MAX_ROSTER_BYTES:
                raise RosterError(f"{path}: {info.filename} unpacks to more than "
                                  f"{MAX_ROSTER_BYTES:,} bytes (MAX_ROSTER_BYTES)")
            return data
    except (zipfile.BadZipFile, OSError, EOFError, NotImplementedError, zlib.error) as exc:
        raise RosterError(f"{path}: not a .rosz (zip) file: {exc}") from None


def parse_xml(data: bytes, where: str) -> Roster:
    """A ``Roster`` from BattleScribe XML bytes.

    Raises
    ------
    RosterError
        A DOCTYPE or ENTITY declaration (refused, never expanded), XML that does not
        parse, or a tree that is not a roster.
    """
    head = data[:4096].lower()
    if b"<!doctype" in data.lower() or b"<!entity" in head or b"<!entity" in data.lower():
        raise RosterError(f"{where}: XML with a DOCTYPE or ENTITY declaration is refused")
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise RosterError(f"{where}: not valid XML: {exc}") from None
    if root.tag.rsplit("}", 1)[-1] != "roster":
        raise RosterError(f"{where}: not a BattleScribe roster (top element "
                          f"<{root.tag.rsplit('}', 1)[-1]}>, not <roster>)")
    return _tree(xml_to_tree(root), "battlescribe", where)


def _tree(tree: dict, fmt: str, where: str) -> Roster:
    try:
        return read_tree(tree, fmt, where)
    except ValidationError as exc:
        err = exc.errors()[0]
        place = ".".join(str(p) for p in err["loc"])
        raise RosterError(f"{where}: {place}: {err['msg']}") from None
    except ValueError as exc:
        raise RosterError(str(exc)) from None


def check_counts(roster: Roster, where: str) -> Roster:
    """``roster`` when its units fit the map format's own limits (``board/limits.py``):
    at most ``MAX_UNIT_MODELS`` models in a unit and ``MAX_MODELS`` in the roster, checked
    before any model is made or placed.

    Raises
    ------
    RosterError
        The first unit over the unit limit, or the roster over the map limit (one line).
    """
    total = 0
    for unit in roster.units:
        n = unit.model_count
        if n > MAX_UNIT_MODELS:
            raise RosterError(f"{where}: {unit.label}: {n} models in one unit; a map unit holds "
                              f"at most {MAX_UNIT_MODELS} (a limit of the map format)")
        total += n
    if total > MAX_MODELS:
        raise RosterError(f"{where}: {total} models in the roster; a map holds at most "
                          f"{MAX_MODELS} (a limit of the map format)")
    return roster


def read_roster(path: str) -> Roster:
    """Read ``path`` as the format its name (or, for other names, its content) says, and
    check its model counts (``check_counts``).

    Raises
    ------
    RosterError
        One line naming the file and what is wrong with it.
    """
    return check_counts(_read_roster(path), path)


def _read_roster(path: str) -> Roster:
    low = path.lower()
    if low.endswith(".rosz"):
        return parse_xml(_unzip(path), path)
    data = _read_bytes(path)
    if low.endswith(".ros") or data.removeprefix(b"\xef\xbb\xbf").lstrip().startswith(b"<"):
        return parse_xml(data, path)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RosterError(f"{path}: not a roster: not text, XML or a .rosz zip") from None
    if low.endswith(".json") or text.lstrip().startswith("{"):
        try:
            tree = parse_json(text, path)
        except JsonTextError as exc:
            raise RosterError(str(exc)) from None
        return _tree(tree, "newrecruit", path)
    if looks_like_app_text(text):
        try:
            return read_app_text(text, path)
        except ValidationError as exc:
            raise RosterError(f"{path}: {exc.errors()[0]['msg']}") from None
        except ValueError as exc:
            raise RosterError(str(exc)) from None
    raise RosterError(f"{path}: not a roster: expected a BattleScribe .ros/.rosz, a New Recruit "
                      ".json or the 40K app's text export")
