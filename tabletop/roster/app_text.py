"""The official 40K app's text export.

The export is plain text: a title line ``Army name (N points)`` (optional: a first such
line with bullets under it is a unit), a few lines naming the faction, detachment and
battle size, then sections headed in capitals (``CHARACTERS``,
``BATTLELINE``, ``OTHER DATASHEETS``, ...).  Each unit is a line ``Unit Name (N points)``
followed by its bulleted lines.  How a model line differs from a wargear line:

- a top bullet (``•``, two spaces in) with a count, ``• 9x Boy``, and ``◦`` lines under it
  (four spaces in) is a model entry: 9 models, the ``◦`` lines their wargear;
- a top bullet with a count followed by *unbulleted* lines four spaces in (``• 1x Big
  shoota`` / ``    1x Power klaw``) is the wargear list of the unit's own single model;
- a top bullet without a count (``• Warlord``, ``• Enhancement: ...``) is a note;
- a top bullet with a count and nothing under it is a model entry when the unit has other
  model entries or when any such bare line counts 2 or more (``• 9x Beast Snagga Boy``:
  a count of models); otherwise (every bare line ``1x``, no model entries:
  ``• 1x Deffstorm mega-shoota``) it is wargear of the unit's single model;
- except that when no line of the unit has ``◦`` lines under it and the base table knows the
  unit as one model (``SINGLE_MODEL_NOTES``: a vehicle on a hull or a large flying base) and
  knows none of the bare names, the bare lines are that model's wargear even with a count of
  2 (the app lists a Hammerhead Gunship as ``• 1x Railgun`` / ``• 2x Seeker missile``).
  When bare lines with a count of 2 are read as models and the table knows neither the unit
  nor any of those names, the roster carries a one-line warning (``Roster.warnings``): the
  reading is a guess the user should check.

A unit with a wargear list, or with no model entry, has a model named after the unit
(``Ghazghkull Thraka`` with his wargear, beside the ``1x Makari`` entry).  A line the
reader cannot place (a ``◦`` line with no top bullet above it, stray text among the units)
stops the read with its line number: no model is dropped silently.  The app gives no
profiles, so units carry names, counts and roles only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tabletop.roster.base_table import BaseTable, normalise
from tabletop.roster.model import Roster, RosterModel, RosterUnit
from tabletop.roster.tree import role_of

_HEADER = re.compile(r"^(?P<name>\S.*?)\s*\((?P<pts>\d+)\s*(?:points|pts)\)\s*$", re.I)
_BULLET = re.compile(r"^(?P<indent>\s*)(?P<mark>[•◦▪\-\*])\s*(?P<text>.+?)\s*$")
_COUNT = re.compile(r"^(?P<n>\d+)\s*x\s+(?P<name>.+)$", re.I)
_SECTION = re.compile(r"^[A-Z][A-Z &/'-]+$")
_FOOTER = re.compile(r"^exported with", re.I)
#: a top bullet stands fewer than this many spaces in (the app writes two); a ``◦`` line
#: or an unbulleted wargear line stands further in (the app writes four)
_TOP_INDENT = 4

#: named default: what the base table says of a unit that is one model (a vehicle): a unit
#: row with no model rows and one of these notes.  The GW guide names these bases for tanks,
#: skimmers and walkers, never for squads of infantry; the app never gives a model count for
#: such a unit, so its bare bullets are its wargear.
SINGLE_MODEL_NOTES = ("Hull", "Large Flying Base")


@dataclass
class _Item:
    """A top bullet of a unit, the line it is on, and what stands under it."""

    line: int
    text: str
    gear: list[str] = field(default_factory=list)      # ``◦`` lines
    more: list[str] = field(default_factory=list)      # unbulleted wargear lines


@dataclass
class _Block:
    name: str
    points: float
    section: str | None
    line: int
    items: list[_Item] = field(default_factory=list)


def looks_like_app_text(text: str) -> bool:
    """Whether ``text`` reads as the app's export: a points header and ``Nx`` bullets."""
    lines = text.splitlines()
    return any(_HEADER.match(line) for line in lines[:3]) and any(
        (b := _BULLET.match(line)) and _COUNT.match(b.group("text")) for line in lines)


def _name(text: str) -> str:
    m = _COUNT.match(text)
    return m.group("name").strip() if m else text


def read_app_text(text: str, where: str) -> Roster:
    """A ``Roster`` (system ``40k``) from the app's text export (see the module docstring).

    Raises
    ------
    ValueError
        No unit could be read, or a line cannot be placed (``where: line N: ...``).
    """
    lines = [ln.rstrip() for ln in text.replace("\r\n", "\n").split("\n")]
    title = ""
    blocks: list[_Block] = []
    section: str | None = None
    preamble: list[str] = []
    titled = False      # the first "Name (N points)" line is the title unless bullets follow
    for no, raw in enumerate(lines, 1):
        if not raw.strip() or _FOOTER.match(raw.strip()):
            continue
        indent = len(raw) - len(raw.lstrip())
        b = _BULLET.match(raw)
        if b and blocks:
            top = b.group("mark") != "◦" and len(b.group("indent")) < _TOP_INDENT
            items = blocks[-1].items
            if top:
                items.append(_Item(no, b.group("text")))
            elif items and not items[-1].more:
                items[-1].gear.append(_name(b.group("text")))
            else:
                raise ValueError(f"{where}: line {no}: cannot read {raw.strip()!r}: a wargear "
                                 "bullet with no model line (\"• Nx Model\") above it")
            continue
        if indent >= _TOP_INDENT and blocks and blocks[-1].items and not b:
            last = blocks[-1].items[-1]
            if last.gear:
                raise ValueError(f"{where}: line {no}: cannot read {raw.strip()!r}: an "
                                 "unbulleted line among a model's \"◦\" wargear lines")
            last.more.append(_name(raw.strip()))
            continue
        h = _HEADER.match(raw.strip())
        if _SECTION.match(raw.strip()) and not h:
            section = raw.strip().lower()
            continue
        if h and not indent:
            if not titled:
                titled = True
                nxt = next((ln for ln in lines[no:] if ln.strip()), "")
                if not _BULLET.match(nxt):      # a unit's line has its bullets under it
                    title = h.group("name")
                    continue
            blocks.append(_Block(h.group("name"), float(h.group("pts")), section, no))
            continue
        if blocks and any(bl.items for bl in blocks):
            raise ValueError(f"{where}: line {no}: cannot read {raw.strip()!r}: not a unit "
                             "(\"Name (N points)\"), a section or a bullet of a unit")
        if title and not blocks:
            preamble.append(raw.strip())
    faction = preamble[0] if preamble else None
    units = []
    warnings: list[str] = []
    table = BaseTable("40k", faction)
    for bl in blocks:
        if not bl.items and bl.section is None:
            continue                       # a battle-size line ("Strike Force (2000 points)")
        units.append(_unit(bl, faction, table, warnings, where))
    if not units:
        raise ValueError(f"{where}: no unit lines (\"Unit Name (N points)\" with • bullets) found")
    return Roster(name=title or where, system="40k", system_name="Warhammer 40,000 (app export)",
                  format="app-text", faction=faction, units=units, warnings=warnings)


def _known(table: BaseTable, unit: str, name: str) -> bool:
    """Whether the base table knows ``name`` as a model of ``unit`` or as a unit."""
    n = normalise(name)
    return n in table.by_unit or any(
        normalise(r.model) == n for r in table.by_unit.get(normalise(unit), []) if r.model)


def _single_model(table: BaseTable, unit: str) -> bool:
    """Whether the table knows ``unit`` as one model (``SINGLE_MODEL_NOTES``)."""
    rows = table._faction_rows(table.by_unit.get(normalise(unit), []))
    return bool(rows) and all(not r.model and r.note in SINGLE_MODEL_NOTES for r in rows)


def _unit(bl: _Block, faction: str | None, table: BaseTable, warnings: list[str],
          where: str) -> RosterUnit:
    counted = [(it, _COUNT.match(it.text)) for it in bl.items]
    bare = [(it, m) for it, m in counted if m and not it.gear and not it.more]
    entries = [(it, m) for it, m in counted if m and it.gear]
    bare_models = bool(entries) or any(int(m.group("n")) >= 2 for _, m in bare)
    if bare_models and not entries:
        known = [m.group("name").strip() for _, m in bare
                 if _known(table, bl.name, m.group("name").strip())]
        if not known and _single_model(table, bl.name):
            bare_models = False            # a vehicle's wargear (SINGLE_MODEL_NOTES)
        elif not known and normalise(bl.name) not in table.by_unit:
            warnings.append(
                f"{where}: line {bl.line}: {bl.name}: read its bullets "
                f"({', '.join(m.group('name').strip() for _, m in bare)}) as models; the base "
                "table knows neither the unit nor those names: check the unit in the output")
    models: list[RosterModel] = []
    own_gear: list[str] = []
    notes: list[str] = []
    has_list = False
    for it, m in counted:
        if m and (it.gear or (bare_models and not it.more)):
            mname = m.group("name").strip()
            models.append(RosterModel(name=mname, count=int(m.group("n")), role=role_of(mname),
                                      gear=list(it.gear)))
        elif m:
            has_list = has_list or bool(it.more)
            own_gear.append(m.group("name").strip())
            own_gear.extend(it.more)
        else:
            notes.append(it.text)
            notes.extend(it.more)
    keywords = ["character"] if bl.section and "character" in bl.section else []
    if has_list or not models:
        models.insert(0, RosterModel(name=bl.name, count=1,
                                     role="commander" if keywords else role_of(bl.name),
                                     gear=own_gear))
    return RosterUnit(name=bl.name, models=models, keywords=keywords, points=bl.points,
                      faction=faction, gear=own_gear + notes)
