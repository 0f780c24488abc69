"""The official 40K app's text export.

The export is plain text: a title line ``Army name (N points)``, a few lines naming the
faction, detachment and battle size, then sections headed in capitals (``CHARACTERS``,
``BATTLELINE``, ``OTHER DATASHEETS``, ...).  Each unit is a line ``Unit Name (N points)``
followed by bulleted lines: ``• Nx Model`` lines whose own indented bullets (``◦ Nx
Weapon``) list the model's wargear; a single-model unit lists its wargear as the first
bullets, with lines such as ``• Warlord`` or ``• Enhancement: ...`` among them.  The app
gives no profiles, so units carry names, counts and roles only.
"""

from __future__ import annotations

import re

from tabletop.roster.model import Roster, RosterModel, RosterUnit
from tabletop.roster.tree import role_of

_HEADER = re.compile(r"^(?P<name>\S.*?)\s*\((?P<pts>\d+)\s*(?:points|pts)\)\s*$", re.I)
_BULLET = re.compile(r"^(?P<indent>\s*)(?P<mark>[•◦▪\-\*])\s*(?P<text>.+?)\s*$")
_COUNT = re.compile(r"^(?P<n>\d+)\s*x\s+(?P<name>.+)$", re.I)
_SECTION = re.compile(r"^[A-Z][A-Z &/'-]+$")
_FOOTER = re.compile(r"^exported with", re.I)


def looks_like_app_text(text: str) -> bool:
    """Whether ``text`` reads as the app's export: a points header and ``Nx`` bullets."""
    lines = text.splitlines()
    return any(_HEADER.match(line) for line in lines[:3]) and any(
        (b := _BULLET.match(line)) and _COUNT.match(b.group("text")) for line in lines)


def read_app_text(text: str, where: str) -> Roster:
    """A ``Roster`` (system ``40k``) from the app's text export.

    Raises
    ------
    ValueError
        No unit could be read; the message names ``where``.
    """
    lines = [ln.rstrip() for ln in text.replace("\r\n", "\n").split("\n")]
    title = ""
    faction = None
    blocks: list[tuple[str, float, str | None, list[tuple[int, str]]]] = []
    section: str | None = None
    preamble: list[str] = []
    for raw in lines:
        if not raw.strip() or _FOOTER.match(raw.strip()):
            continue
        b = _BULLET.match(raw)
        if b and blocks:
            depth = 1 if (b.group("mark") == "•" and len(b.group("indent")) < 4) else 2
            blocks[-1][3].append((depth, b.group("text")))
            continue
        h = _HEADER.match(raw.strip())
        if _SECTION.match(raw.strip()) and not h:
            section = raw.strip().lower()
            continue
        if h and not raw.startswith((" ", "\t")):
            if not title:
                title = h.group("name")
                continue
            blocks.append((h.group("name"), float(h.group("pts")), section, []))
            continue
        if not blocks and title:
            preamble.append(raw.strip())
    if preamble:
        faction = preamble[0]
    units = []
    for name, pts, sec, bullets in blocks:
        if not bullets and sec is None:
            continue                       # a battle-size line ("Strike Force (2000 points)")
        units.append(_unit(name, pts, sec, bullets, faction))
    if not units:
        raise ValueError(f"{where}: no unit lines (\"Unit Name (N points)\" with • bullets) found")
    return Roster(name=title or where, system="40k", system_name="Warhammer 40,000 (app export)",
                  format="app-text", faction=faction, units=units)


def _unit(name: str, pts: float, section: str | None, bullets: list[tuple[int, str]],
          faction: str | None) -> RosterUnit:
    models: list[RosterModel] = []
    loose: list[str] = []
    k = 0
    while k < len(bullets):
        depth, text = bullets[k]
        kids = []
        j = k + 1
        while j < len(bullets) and bullets[j][0] == 2:
            kids.append(bullets[j][1])
            j += 1
        m = _COUNT.match(text)
        if depth == 1 and m and kids:
            gear = [(_COUNT.match(t).group("name") if _COUNT.match(t) else t) for t in kids]
            mname = m.group("name").strip()
            models.append(RosterModel(name=mname, count=int(m.group("n")), role=role_of(mname),
                                      gear=gear))
        else:
            loose.append(m.group("name").strip() if m else text)
            loose.extend((_COUNT.match(t).group("name") if _COUNT.match(t) else t) for t in kids)
        k = j
    keywords = ["character"] if section and "character" in section else []
    if not models:
        models = [RosterModel(name=name, count=1, role="commander" if keywords else role_of(name),
                              gear=loose)]
    return RosterUnit(name=name, models=models, keywords=keywords, points=pts, faction=faction,
                      gear=loose)
