"""Save a map by editing the TOML document it was read from (tomlkit), so the user's
comments, key order, spacing and number style survive a save.

``edit(source_text, base, new)`` takes the text of the file read, ``base`` the map
as ``mapfile.to_dict`` writes it for the state that file loads to, and ``new`` the
same for the state to save.  Only what differs between ``base`` and ``new`` is
written into the document: a moved model's coordinates are changed in place in
their array, a removed unit's table is dropped, a new table is appended; every
other line is left as it was.  Where the document writes a thing in a form the
canonical dict does not (a formation, a tape measurement), the differing value
replaces that form.  The caller checks the result loads back to ``new``.
"""

from __future__ import annotations

from typing import Any

import tomlkit
from tomlkit.items import AoT, Array, InlineTable, Table
from tomlkit.toml_document import TOMLDocument

__all__ = ["edit"]

_TABLES = (Table, InlineTable, TOMLDocument)


def _value(v: Any, inline: bool) -> Any:
    """``v`` as a tomlkit item; a table inside an array or an inline table stays inline, a
    list of tables elsewhere is written as ``[[...]]`` tables (a saved run's
    ``[[decisions]]``)."""
    if isinstance(v, dict) and inline:
        t = tomlkit.inline_table()
        for k, x in v.items():
            t[k] = _value(x, True)
        return t
    if isinstance(v, list) and v and not inline and all(isinstance(x, dict) for x in v):
        aot = tomlkit.aot()             # a list of tables outside an array: [[...]] tables
        for x in v:
            aot.append(tomlkit.item(x))
        return aot
    if isinstance(v, list):
        arr = tomlkit.array()
        for x in v:
            arr.append(_value(x, True))
        return arr
    return v


def _replace(parent: Any, key: Any, new: Any) -> None:
    old = parent[key]
    inline = isinstance(parent, (Array, InlineTable)) or isinstance(old, InlineTable)
    if isinstance(old, AoT) and isinstance(new, list) and all(isinstance(x, dict) for x in new):
        parent[key] = tomlkit.aot()
        for x in new:
            parent[key].append(x)
        return
    parent[key] = _value(new, inline)


def _by_id(items: list[Any]) -> list[Any] | None:
    ids = [x.get("id") if isinstance(x, dict) else None for x in items]
    if any(i is None for i in ids) or len(set(ids)) != len(ids):
        return None
    return ids


def _apply_list(node: Any, base: list[Any], new: list[Any]) -> bool:
    if not isinstance(node, (Array, AoT)) or len(node) != len(base):
        return False
    if len(new) == len(base):
        for i, (b, n) in enumerate(zip(base, new)):
            if b != n and not _apply(node[i], b, n):
                _replace(node, i, n)
        return True
    # tables with ids (units, terrain): keep the documents of those kept, by id
    old_ids, new_ids = _by_id(base), _by_id(new)
    if old_ids is None or new_ids is None or not isinstance(node, AoT):
        return False
    kept = [i for i in old_ids if i in new_ids]
    if kept != [i for i in new_ids if i in old_ids]:
        return False            # reordered: write the array afresh
    for k in reversed(range(len(old_ids))):
        if old_ids[k] not in new_ids:
            del node[k]
    for n in new:
        if n["id"] in old_ids:
            k = kept.index(n["id"])
            b = base[old_ids.index(n["id"])]
            if b != n and not _apply(node[k], b, n):
                return False
        else:
            if len(node) and not node[-1].as_string().endswith("\n\n"):
                node[-1].add(tomlkit.nl())      # the file's last table: a blank line after it
            node.append(_spaced(n))
    return [x.get("id") for x in node] == new_ids


def _spaced(new: dict[str, Any]) -> Any:
    """A new ``[[...]]`` table for ``new``, ending in a blank line so the table after it
    (the next new one, or the next section) stands apart as in a written file."""
    table = tomlkit.item(new)
    table.add(tomlkit.nl())
    return table


def _apply(node: Any, base: Any, new: Any) -> bool:
    """Change ``node`` (a tomlkit item) in place from ``base`` to ``new``; False when
    it cannot be done in place (the caller replaces the whole value)."""
    if base == new:
        return True
    if isinstance(base, dict) and isinstance(new, dict) and isinstance(node, _TABLES):
        for k in base:
            if k not in new and k in node:
                del node[k]
        for k, v in new.items():
            if k not in node:
                node[k] = _value(v, isinstance(node, InlineTable))
            elif k not in base or not _apply(node[k], base[k], v):
                _replace(node, k, v)
        return True
    if isinstance(base, list) and isinstance(new, list):
        return _apply_list(node, base, new)
    return False


def edit(source_text: str, base: dict[str, Any], new: dict[str, Any]) -> str:
    """The text of ``source_text`` changed from ``base`` to ``new`` (see the module
    docstring); comments and layout of everything unchanged are kept.

    Raises
    ------
    tomlkit.exceptions.TOMLKitError
        ``source_text`` is not TOML tomlkit can edit (the caller writes afresh).
    """
    doc = tomlkit.parse(source_text)
    if not _apply(doc, base, new):
        raise ValueError("the document cannot be edited in place")
    return tomlkit.dumps(doc)

