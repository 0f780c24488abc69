"""The shipped base-size table (``tabletop/data/bases.csv``, built by ``tools/make_bases.py``
from ``reference/base-sizes.csv``) and how roster names are matched to it.

Names are compared normalised (``normalise``): lowercase, "&" read as "and", every run of
other characters one space, each word made singular ("Intercessors" = "Intercessor",
"Sisters" = "Sister", "Harpies" = "Harpy").  A model's base is found, for its system (a
Horus Heresy roster looks in the Heresy rows, then the 40K rows: the Heresy guide is short
and the armies share bases), in this order:

1. a row naming its unit and model, then one naming its unit alone, rows of the GW base
   size guide first (the one tournaments use), then the others;
2. a row naming the model as a unit (a character listed as a model of a wrapper);
3. the unit's model rows, when they all give the same base.

Rows of the roster's faction are preferred when the name is in several factions; when the
factions left disagree on the base, the name is not known (never guessed).  The Old World:
a mounted model stands on its mount's base (``MOUNT_BASE``): among the model's row and the
rows naming its gear as a unit (its mount), the largest base is its base.

A row with no size ("Hull", "Large Flying Base", "Use model") is known but gives no base:
the user gives one (``--base``), as for a name not in the table.

Crews (``CREW_BASE``): a model of a war machine that is not the machine itself stands on
an infantry base where the table knows one: a model whose name the table knows as a unit
of its own (40K Mek Gunz' ``Gretchin``: 25mm) when the machine's row gives no size, and a
model named as crew (``Crew``, ``Gun Crew``) in The Old World, from the faction's crew
rows (the Empire's ``Gun Crew``: 25x25mm) when they agree.
"""

from __future__ import annotations

import csv
import difflib
import io
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from tabletop.board.bases import parse_base

#: named default (army data: "rider profiles carry 25x25 while mount profiles carry the
#: cavalry base"): in The Old World a mounted model takes the largest base among its own
#: row and its mount's, so Empire Knights on Barded Warhorses stand on 30x60mm.
MOUNT_BASE = "largest of the model's and its mount's rows"

#: named default: a war machine's crew stand on infantry bases of their own, not on the
#: machine's (a player fields the crew beside the gun); see the module docstring
CREW_BASE = "the crew's own infantry row, where the table knows one"

#: where each system looks, in order
SEARCH = {"40k": ("40k",), "old-world": ("old-world",), "horus-heresy": ("horus-heresy", "40k")}

#: the source whose rows win (40K): the one tournaments use
OFFICIAL = 'GW "Warhammer 40,000 Base Size Guide'

#: how many nearest names an unknown name lists
CANDIDATES = 3


@dataclass(frozen=True)
class Row:
    """One row of the table: ``base`` is map-file text ("32mm") or "" (``note`` says why);
    ``line`` its line in reference/base-sizes.csv; ``source`` the source's text."""

    system: str
    faction: str
    unit: str
    model: str
    base: str
    note: str
    line: int
    source: str

    @property
    def label(self) -> str:
        name = f"{self.unit}: {self.model}" if self.model else self.unit
        return f"{name} ({self.faction}, {self.base or self.note})"

    @property
    def area(self) -> float:
        b = parse_base(self.base)
        return b.along_mm * b.across_mm


@dataclass(frozen=True)
class Found:
    """A base found for a model: the map base text and the row(s) it came from."""

    base: str
    rows: tuple[Row, ...]


@dataclass(frozen=True)
class Missing:
    """No base for a model: why, and the nearest names the table knows."""

    reason: str
    candidates: tuple[str, ...]
    sizes: tuple[str, ...] = ()        # the candidates' bases, for the suggestion


def _official(row: Row) -> bool:
    """Whether a row is from the GW base size guide (preferred over the data export, as
    ``tools/make_bases.py`` prefers it for the same name)."""
    return row.source.startswith(OFFICIAL)


def _singular(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def normalise(name: str) -> str:
    """The form names are compared in: ``"Intercessors!"`` -> ``"intercessor"``."""
    text = name.lower().replace("&", " and ")
    text = re.sub(r"[^a-z0-9]+", " ", text).strip()
    return " ".join(_singular(w) for w in text.split())


@lru_cache(maxsize=1)
def load_rows() -> tuple[Row, ...]:
    """Every row of the shipped table (read once)."""
    pkg = resources.files("tabletop.data")
    sources = {r["source"]: r["text"] for r in
               csv.DictReader(io.StringIO(pkg.joinpath("base-sources.csv").read_text("utf-8")))}
    rows = []
    for r in csv.DictReader(io.StringIO(pkg.joinpath("bases.csv").read_text("utf-8"))):
        rows.append(Row(r["system"], r["faction"], r["unit"], r["model"], r["base"], r["note"],
                        int(r["line"]), sources.get(r["source"], "")))
    return tuple(rows)


class BaseTable:
    """The rows of one roster's system, indexed by normalised unit name."""

    def __init__(self, system: str, faction: str | None = None,
                 rows: tuple[Row, ...] | None = None):
        self.system = system
        self.faction = normalise(faction or "")
        self.by_unit: dict[str, list[Row]] = {}
        self.names: dict[str, str] = {}
        self._sized: list[str] | None = None
        for sys_name in SEARCH[system]:
            for row in (rows if rows is not None else load_rows()):
                if row.system != sys_name:
                    continue
                key = normalise(row.unit)
                if key in self.by_unit and self.by_unit[key][0].system != sys_name:
                    continue            # the first system searched wins the name
                self.by_unit.setdefault(key, []).append(row)
                self.names.setdefault(key, row.unit)

    def _faction_rows(self, rows: list[Row]) -> list[Row]:
        if not self.faction:
            return rows
        mine = [r for r in rows if normalise(r.faction) and (
            normalise(r.faction) in self.faction or self.faction in normalise(r.faction))]
        return mine or rows

    @staticmethod
    def _one(rows: list[Row]) -> Found | None:
        """The base when every row agrees (None when they differ)."""
        if not rows:
            return None
        if len({r.base for r in rows}) == 1:
            return Found(rows[0].base, (rows[0],))
        return None

    def _model_rows(self, unit: str, model: str) -> list[Row]:
        rows = self._faction_rows(self.by_unit.get(normalise(unit), []))
        m = normalise(model)
        exact = [r for r in rows if normalise(r.model) == m and r.model]
        unit_level = [r for r in rows if not r.model]
        for group in ([r for r in exact if _official(r)], [r for r in unit_level if _official(r)],
                      exact, unit_level):
            if group:
                return group
        as_unit = [r for r in self._faction_rows(self.by_unit.get(m, [])) if not r.model]
        if as_unit:
            return as_unit
        if rows and len({r.base for r in rows}) == 1:
            return rows
        return []

    def _crew(self, unit: str, model: str) -> Found | None:
        """A crew model's own infantry base (``CREW_BASE``), or None."""
        m, u = normalise(model), normalise(unit)
        if not m or m == u:
            return None
        rows = self._faction_rows(self.by_unit.get(u, []))
        if any(normalise(r.model) == m for r in rows if r.model):
            return None                       # the table names this model of this unit
        machine = [r for r in rows if not r.model]
        own = [r for r in self._faction_rows(self.by_unit.get(m, [])) if not r.model and r.base]
        if own and machine and not any(r.base for r in machine):
            return self._one(own)             # Gretchin of Mek Gunz (Hull)
        if self.system == "old-world" and "crew" in m.split() and machine:
            crews = [r for k, rs in self.by_unit.items() if "crew" in k.split()
                     for r in self._faction_rows(rs) if not r.model and r.base
                     and self.faction and normalise(r.faction) in self.faction]
            exact = [r for r in crews if normalise(r.unit) == m]
            return self._one(exact or crews)
        return None

    def find(self, unit: str, model: str, gear: tuple[str, ...] = ()) -> Found | Missing:
        """The base of ``model`` of ``unit`` (names as the roster writes them)."""
        crew = self._crew(unit, model)
        if crew is not None:
            return crew
        rows = self._model_rows(unit, model)
        found = self._one(rows)
        if rows and found is None:
            return Missing(f"the table gives {len({r.base or r.note for r in rows})} different "
                           f"bases for {model!r} of {unit!r} in different factions",
                           tuple(r.label for r in rows[:CANDIDATES]))
        if self.system == "old-world":
            mounts = [r for g in gear for r in self._faction_rows(self.by_unit.get(normalise(g), []))
                      if not r.model and r.base][:1]
            sized = ([found.rows[0]] if found and found.base else []) + mounts
            if sized:
                best = max(sized, key=lambda r: r.area)
                return Found(best.base, tuple(sized) if len(sized) > 1 else (best,))
        if found is None:
            return Missing(f"{unit!r} is not in the base table", self.nearest(unit),
                           self.nearest_sizes(unit))
        if not found.base:
            return Missing(f"the table gives {found.rows[0].note!r} for {unit!r} (no size)",
                           ())
        return found

    def _sized_keys(self) -> list[str]:
        """The names a suggestion may offer: not blank (rows naming only a model have no
        unit name) and with a base size (not only "Hull", "Use model", ...)."""
        if self._sized is None:
            self._sized = [k for k, rows in self.by_unit.items()
                           if k and any(r.base for r in self._faction_rows(rows))]
        return self._sized

    def _nearest_keys(self, name: str) -> list[str]:
        return difflib.get_close_matches(normalise(name), self._sized_keys(), n=CANDIDATES,
                                         cutoff=0.0)

    def nearest_sizes(self, name: str) -> tuple[str, ...]:
        """The bases of the names ``nearest`` lists, nearest first, each once."""
        out: list[str] = []
        for k in self._nearest_keys(name):
            for r in self._faction_rows(self.by_unit[k]):
                if r.base and r.base not in out:
                    out.append(r.base)
        return tuple(out)

    def nearest(self, name: str) -> tuple[str, ...]:
        """The ``CANDIDATES`` unit names nearest ``name`` (difflib), with their base sizes:
        never a blank name, and only rows with a size (a "Use model" or "Hull" row is no
        base to give), ``Name (Faction, 32mm)`` or, across factions, ``Name (Faction,
        32mm/40mm)``."""
        out = []
        for k in self._nearest_keys(name):
            rows = [r for r in self._faction_rows(self.by_unit[k]) if r.base]
            sizes = "/".join(sorted({r.base for r in rows}))
            out.append(f"{self.names[k]} ({rows[0].faction}, {sizes})" if rows[0].faction
                       else f"{self.names[k]} ({sizes})")
        return tuple(out)
