"""The BattleScribe roster tree, read the same way from ``.ros`` XML and New Recruit JSON.

Both formats hold one tree: ``roster > forces > force > selections > selection``; a
selection has a ``type`` (``unit``, ``model`` or ``upgrade``), a ``number``, ``profiles``
(each ``characteristics``, a name and a text), ``categories`` and ``costs``, and its own
``selections``.  ``read_tree(data)`` takes that tree as plain dicts and lists (XML is turned
into the same shape first, ``xml_to_tree``) and returns a ``Roster``.

How a tree becomes units:

- a top-level ``unit`` selection is a unit; a top-level ``model`` selection is a unit of
  ``number`` such models; an ``upgrade`` (detachment, battle size) is looked inside;
- a unit's models are its ``model`` selections (also inside upgrade groups); a unit with
  none is ``number`` models named as the unit;
- a model's profile is the first stat profile (one that is not a weapon's) of the model,
  else of its unit; its weapons are the weapon profiles below it; its ``gear`` the names of
  its other selections (a mount among them: ``base_table``);
- a ``customName`` (the player's own name for a unit or model) is its name, the selection's
  ``name`` kept as its ``datasheet`` (the base table is searched by it; a map shows
  ``model.CUSTOM_NAME_FORM``, "Ωmega Squad (Intercessor Squad)");
- roles: ``ROLE_WORDS`` below on model names (the datasheet's, then the custom one) and on a unit's command upgrades (an upgrade
  named "Standard Bearer" makes one rank-and-file model the standard); a model of a unit
  with the ``character`` category that is the unit's only model is its ``commander``.
"""

from __future__ import annotations

import re
from typing import Any

from tabletop.roster.model import Roster, RosterModel, RosterUnit
from tabletop.rules.fight_phase.abilities import rule_word_problems

#: named default (no rule text: list builders name command models this way): the words in a
#: model's or an upgrade's name that give it a map role, checked in this order.
ROLE_WORDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("standard", ("standard", "banner", "ensign")),
    ("musician", ("musician", "drummer", "hornblower", "piper", "bugler", "trumpeter")),
    ("champion", ("champion", "sergeant", "superior", "exarch", "boss nob", "sybarite",
                  "huscarl", "veteran sergeant", "patrol leader", "revered guardian")),
)

#: the lists kept as lists when XML is turned into the tree
_LIST_TAGS = {"forces", "selections", "profiles", "characteristics", "categories", "costs",
              "rules", "costLimits", "publications", "infoLinks"}
_STATS = {"m", "ws", "bs", "s", "t", "w", "i", "a", "ld", "sv", "oc"}
_MAP_STATS_40K = {"M": "M", "T": "T", "SV": "Sv", "W": "W", "LD": "Ld", "OC": "OC", "WS": "WS",
                  "BS": "BS", "S": "S", "A": "A", "I": "I", "INV": "Inv"}
#: rank-and-flank stat names (``rules/rank_and_flank/profiles.py`` STATS) from The Old
#: World's characteristics: M, WS, S, T, A, W, Ld
_MAP_STATS_RNF = {"M": "Move", "WS": "Skill", "S": "Power", "T": "Defense", "A": "Attacks",
                  "W": "Wounds", "LD": "Discipline"}


def system_of(name: str) -> str | None:
    """The base table's system for a game system name, or None."""
    low = name.lower()
    if "old world" in low:
        return "old-world"
    if "heresy" in low or "30k" in low:
        return "horus-heresy"
    if "40,000" in low or "40k" in low or "40000" in low:
        return "40k"
    return None


def role_of(name: str) -> str | None:
    """The map role ``ROLE_WORDS`` gives a name, or None."""
    low = " " + re.sub(r"[^a-z]+", " ", name.lower()) + " "
    for role, words in ROLE_WORDS:
        if any(f" {w} " in low for w in words):
            return role
    return None


def xml_to_tree(elem: Any) -> dict[str, Any]:
    """An ElementTree element as the JSON export's dicts: attributes as keys, container
    elements as lists, an element's text as ``"$text"``."""
    out: dict[str, Any] = {k: v for k, v in elem.attrib.items()}
    text = (elem.text or "").strip()
    if text and len(elem) == 0:
        out["$text"] = text
    for child in elem:
        tag = child.tag.rsplit("}", 1)[-1]
        if tag in _LIST_TAGS:
            out[tag] = [xml_to_tree(c) for c in child]
        else:
            out[tag] = xml_to_tree(child)
    return out


def _list(node: dict[str, Any], key: str) -> list[dict[str, Any]]:
    value = node.get(key) or []
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _number(node: dict[str, Any]) -> int:
    try:
        return max(1, int(float(node.get("number", 1))))
    except OverflowError:
        return 10 ** 12       # "1e999": infinite; refused by the count limits (read.py)
    except (TypeError, ValueError):
        return 1


def _chars(profile: dict[str, Any]) -> dict[str, str]:
    out = {}
    for c in _list(profile, "characteristics"):
        value = c.get("$text", c.get("value", c.get("#text", "")))
        out[str(c.get("name", "")).strip()] = str(value if value is not None else "").strip()
    return out


def _is_weapon(profile: dict[str, Any]) -> bool:
    return "weapon" in str(profile.get("typeName", "")).lower()


def _is_stats(profile: dict[str, Any]) -> bool:
    names = {n.lower() for n in _chars(profile)}
    return not _is_weapon(profile) and len(names & _STATS) >= 3 and "range" not in names


def _num(text: str) -> int | float | str:
    t = text.strip().rstrip('"').rstrip("+").strip()
    try:
        v = float(t)
    except ValueError:
        return text.strip()
    return int(v) if v.is_integer() else v


def stat_profile(chars: dict[str, str], system: str) -> dict[str, Any]:
    """A map profile from a stat profile's characteristics: 40K/HH keep their names
    (``SV`` -> ``Sv``, ``LD`` -> ``Ld``; ``6"`` -> 6, ``3+`` -> 3); The Old World's are
    renamed to the rank-and-flank stats (``_MAP_STATS_RNF``).  A "-" is left out."""
    names = _MAP_STATS_RNF if system == "old-world" else _MAP_STATS_40K
    out: dict[str, Any] = {}
    for key, value in chars.items():
        mapped = names.get(key.upper())
        if mapped and value not in ("", "-", "*"):
            out[mapped] = _num(value)
    return out


def weapon_of(name: str, chars: dict[str, str]) -> dict[str, Any] | None:
    """A map weapon ``{name, A, WS, S, AP, D}`` from a melee weapon profile (one with a WS),
    or None for other weapons (the fight phase reads melee weapons only).  The words of
    its ``Keywords`` characteristic that the attacks read (``Devastating Wounds``, ``Lethal
    Hits``, ...: ``rules.fight_phase.abilities``) become its ``rules``; the others are
    left out (``unread_words`` names them)."""
    up = {k.upper(): v for k, v in chars.items()}
    if "WS" not in up or any(k not in up for k in ("A", "S", "AP", "D")):
        return None
    if up["WS"] in ("", "-", "N/A"):
        return None
    out: dict[str, Any] = {"name": name, "A": _num(up["A"]), "WS": _num(up["WS"]),
                           "S": _num(up["S"]), "AP": _num(up["AP"]), "D": _num(up["D"])}
    words = _keyword_words(up)
    unread = {w for w, _ in rule_word_problems(words)}
    rules = [w for w in words if w not in unread]
    if rules:
        out["rules"] = rules
    return out


def _keyword_words(up: dict[str, str]) -> list[str]:
    """The words of a weapon profile's ``Keywords`` (comma-separated; "-" for none)."""
    text = up.get("KEYWORDS", "").strip()
    return [w.strip() for w in text.split(",") if w.strip() and w.strip() != "-"]


def unread_words(sel: dict[str, Any]) -> list[str]:
    """What a unit's selection gives that the program does not model: the melee weapons'
    keywords the attacks do not read (``Precision``) and the unit's ability profiles
    (their names), each once, in the roster's order."""
    out: list[str] = []
    for node in [sel, *_below(sel, stop_at_models=False)]:
        for p in _list(node, "profiles"):
            if _is_weapon(p):
                up = {k.upper(): v for k, v in _chars(p).items()}
                if weapon_of("w", _chars(p)) is None:
                    continue
                for w, _ in rule_word_problems(_keyword_words(up)):
                    if w not in out:
                        out.append(w)
            elif "abilit" in str(p.get("typeName", "")).lower():
                n = str(p.get("name", "")).strip()
                if n and n not in out:
                    out.append(n)
    return out


def _below(sel: dict[str, Any], stop_at_models: bool = True):
    """Every selection below ``sel`` (not inside a model below it when ``stop_at_models``)."""
    for s in _list(sel, "selections"):
        yield s
        if not (stop_at_models and s.get("type") == "model"):
            yield from _below(s, stop_at_models)


def _points(sel: dict[str, Any]) -> float:
    total = 0.0
    for node in [sel, *_below(sel, stop_at_models=False)]:
        for c in _list(node, "costs"):
            if str(c.get("name", "")).strip().lower() in ("pts", "points"):
                try:
                    total += float(c.get("value", 0)) * (1 if node is sel else 1)
                except (TypeError, ValueError):
                    pass
    return total


def _weapons(sel: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for node in [sel, *_below(sel, stop_at_models=False)]:
        for p in _list(node, "profiles"):
            if _is_weapon(p):
                w = weapon_of(str(p.get("name", "")).strip(), _chars(p))
                if w is not None and w not in out:
                    out.append(w)
    return out


def _first_stats(sel: dict[str, Any], system: str) -> dict[str, Any]:
    for p in _list(sel, "profiles"):
        if _is_stats(p):
            return stat_profile(_chars(p), system)
    return {}


def _category(name: str) -> str:
    """A category as a keyword: ``"Faction: Necrons"`` -> ``"necrons"`` (the list builders
    write a unit's faction keyword with a ``Faction:`` prefix), others lowercased."""
    text = name.strip()
    if text.lower().startswith("faction:"):
        text = text.split(":", 1)[1].strip()
    return text.lower()


def _custom(sel: dict[str, Any], name: str) -> tuple[str, str | None]:
    """``(name shown, datasheet name)``: a selection's ``customName`` (New Recruit JSON, a
    BattleScribe ``customName`` attribute) is the name it goes by, its own name the
    datasheet's (None when it has no other name)."""
    custom = str(sel.get("customName") or "").strip()
    if custom and custom.casefold() != name.casefold():
        return custom, name
    return name, None


def _unit(sel: dict[str, Any], system: str, faction: str | None) -> RosterUnit:
    sheet = str(sel.get("name", "")).strip()
    name, datasheet = _custom(sel, sheet)
    keywords = [_category(str(c.get("name", ""))) for c in _list(sel, "categories")
                if _category(str(c.get("name", "")))]
    unit_stats = _first_stats(sel, system)
    if sel.get("type") == "model":
        model_sels = [sel]
    else:
        model_sels = [s for s in _below(sel) if s.get("type") == "model"]
    models: list[RosterModel] = []
    for ms in model_sels:
        gear = [str(s.get("name", "")).strip() for s in _below(ms, stop_at_models=False)]
        msheet = str(ms.get("name", "")).strip() or sheet
        mname, mdatasheet = _custom(ms, msheet)
        models.append(RosterModel(
            name=mname, datasheet=mdatasheet, count=_number(ms) if ms is not sel else _number(sel),
            role=role_of(msheet) or role_of(mname), profile=_first_stats(ms, system) or unit_stats,
            weapons=_weapons(ms), gear=[g for g in gear if g]))
    upgrades = [s for s in _below(sel) if s.get("type") != "model"] if model_sels != [sel] else []
    if not models:
        models.append(RosterModel(name=name, datasheet=datasheet, count=_number(sel),
                                  profile=unit_stats,
                                  weapons=_weapons(sel),
                                  gear=[str(s.get("name", "")).strip() for s in upgrades]))
    for up in upgrades:                      # command upgrades promote a rank-and-file model
        role = role_of(str(up.get("name", "")))
        if role is None or any(m.role == role for m in models):
            continue
        plain = next((m for m in models if m.role is None and m.count > 1), None)
        if plain is None:
            continue
        plain.count -= 1
        models.insert(models.index(plain), RosterModel(
            name=str(up.get("name", "")).strip(), role=role, profile=plain.profile,
            weapons=plain.weapons, gear=plain.gear))
    if "character" in keywords or "characters" in keywords:
        if sum(m.count for m in models) == 1:
            models[0].role = "commander"
    unit_gear = [str(s.get("name", "")).strip() for s in upgrades if s.get("name")]
    return RosterUnit(name=name, datasheet=datasheet, models=models, keywords=keywords,
                      points=_points(sel) or None, faction=faction, gear=unit_gear)


def _walk(sel: dict[str, Any], system: str, faction: str | None):
    kind = sel.get("type")
    if kind in ("unit", "model"):
        yield _unit(sel, system, faction), unread_words(sel)
        return
    for s in _list(sel, "selections"):
        yield from _walk(s, system, faction)


def read_tree(data: dict[str, Any], fmt: str, where: str) -> Roster:
    """A ``Roster`` from the roster tree (``{"roster": {...}}`` or the roster itself).

    Raises
    ------
    ValueError
        The game system is not one the base table knows, or the tree has no forces;
        the message names ``where`` (the file).
    """
    root = data.get("roster", data) if isinstance(data, dict) else None
    if not isinstance(root, dict):
        raise ValueError(f"{where}: not a roster: no roster at the top")
    system_name = str(root.get("gameSystemName", "")).strip()
    system = system_of(system_name)
    if system is None:
        raise ValueError(f"{where}: game system {system_name or '(none)'!r} is not one the base "
                         "table knows (Warhammer 40,000, The Old World, Horus Heresy)")
    forces = _list(root, "forces")
    if not forces:
        raise ValueError(f"{where}: the roster has no forces")
    units: list[RosterUnit] = []
    warnings: list[str] = []
    faction = None
    for force in forces:
        fac = str(force.get("catalogueName", "")).strip() or None
        faction = faction or fac
        sels = list(_list(force, "selections"))
        for sub in _list(force, "forces"):
            sels.extend(_list(sub, "selections"))
        for sel in sels:
            for unit, unread in _walk(sel, system, fac):
                units.append(unit)
                if unread:
                    warnings.append(f"{where}: {unit.name}: not modelled, left out: "
                                    + ", ".join(unread))
    return Roster(name=str(root.get("name", "")).strip() or where, system=system,
                  system_name=system_name, format=fmt, faction=faction, units=units,
                  warnings=warnings)
