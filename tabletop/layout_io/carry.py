"""Map ids carried through layout JSON, so that export then import gives them back.

A layout's entity ids are kebab-case, two characters or more
(``^[a-z0-9][a-z0-9-]*[a-z0-9]$``); a map's ids are freer ("A", "B2", "Ruin 1").  The
40kdc terrain-layout schema refuses fields it does not define, so nothing can be added to
a piece: the map id rides in the piece's own ``name`` field instead, as a bracketed tag
at its end (``"layout 1 piece A (small 6x4) [A]"``), written only when the entity id is
not the map id itself.  ``untag`` reads it back only when the tag turns into the piece's
entity id by the same rule (``entity_id``), so a third-party name that merely ends in
brackets is left alone.  A zone's ``name`` carries the map player id the same way (the
schema's ``player`` is only ``attacker`` / ``defender``).
"""

from __future__ import annotations

import re

from tabletop.roster.ids import ascii_text

__all__ = ["entity_id", "objective_entity_id", "tagged", "untag", "tag_of"]

#: a name ending in a bracketed tag: "some name [A]" or just "[A]"
_TAG = re.compile(r"^(?:(?P<name>.*\S) )?\[(?P<id>[^\[\]\s]+)\]$", re.S)
_NAME_MAX = 128


def entity_id(text: str, prefix: str) -> str:
    """A kebab-case entity id (``^[a-z0-9][a-z0-9-]*[a-z0-9]$``, 2+ characters) of
    ``text``, transliterated to ASCII first (``roster.ids.ascii_text``: "Ωmega" -> omega);
    ``prefix-`` goes in front of one shorter than 2 characters ("A" -> ``t-a``)."""
    s = re.sub(r"[^a-z0-9]+", "-", ascii_text(text).lower()).strip("-")
    return s if len(s) >= 2 else f"{prefix}-{s or 'x'}"


def objective_entity_id(map_id: str) -> str:
    """The entity id of an objective piece exported from map objective ``map_id``."""
    return f"objective-{entity_id(map_id, 'o')}"


def tagged(name: str | None, map_id: str, eid: str) -> str | None:
    """The ``name`` to write for an item whose map id is ``map_id`` and entity id ``eid``:
    ``name`` itself (cut to the schema's 128 characters) when the two ids are the same,
    else ``name`` with `` [map_id]`` at its end (``[map_id]`` alone with no name)."""
    if map_id == eid:
        return name[:_NAME_MAX] if name else name
    tag = f"[{map_id}]"
    if not name:
        return tag
    return f"{name[:_NAME_MAX - len(tag) - 1]} {tag}"


def tag_of(name: str | None) -> tuple[str | None, str | None]:
    """``(tag, name without it)`` of a name ending in ``[tag]``; ``(None, name)`` else."""
    m = _TAG.match(name or "")
    if m is None:
        return None, name
    return m.group("id"), m.group("name")


def untag(name: str | None, eid: str | None, to_entity) -> tuple[str | None, str | None]:
    """``(map id, name)`` read back from an item's ``name`` and entity id ``eid``: the tag
    when ``to_entity(tag)`` is ``eid`` (or ``eid`` less the ``-2`` suffixes export adds to
    keep ids apart), with the name before it (None when there is none); else ``(None,
    name)``."""
    tag, rest = tag_of(name)
    if tag is None or eid is None:
        return None, name
    base = eid
    while base != to_entity(tag) and base.endswith("-2"):
        base = base[:-2]
    if base != to_entity(tag):
        return None, name
    return tag, rest
