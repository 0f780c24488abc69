"""Characteristics the attack sequence reads: model profiles and melee weapons.

fight-phase.txt 12.05 and 12.06 say a unit "fights as described in Making
Attacks (04)" without giving section 04; the attack sequence in
``attacks.py`` uses the standard one, and these are the characteristics it
reads (named defaults, see ``attacks.py``):

- profile ``T`` (Toughness), ``Sv`` (Save, 3 means 3+), ``W`` (Wounds); an
  optional invulnerable save as profile ``Inv`` or ``InvSv`` (4 means 4+) or a
  keyword ``invulnerable-4+``; an optional Feel No Pain as profile ``FNP``
  (5 means 5+) or a keyword ``feel-no-pain-5+`` (abilities.py);
- a weapon ``{name, A, WS, S, AP, D}``: ``A`` and ``D`` are a number or a dice
  expression (``"D3"``, ``"D6+1"``, ``"2D6"``), ``WS`` the hit roll needed
  (3 or ``"3+"``), ``AP`` 0, -1, -2 ... (a positive AP is read as its
  negative, ``AP_SIGN``), and an optional ``rules`` list of weapon abilities
  parsed once into ``Weapon.abilities`` (abilities.py).

Named default ``MELEE_WEAPON``: a model fights with the first of its weapons
that has a ``WS`` (a melee weapon); a model with none makes no attacks.

Named default ``DISGRACED_HIT_ROLL`` (``[rules] disgraced_hit_roll``,
default ``"halved-ws"``): a model under the Disgraced status of a gambit
challenge halves its Weapon Skill for the rest of the phase
(gambit-challenge.txt, Disgraced), and a Disgraced model that refused a
challenge still fights in the Fight step.  The weapon here gives a roll
needed, not a Weapon Skill, so the roll is read as a Weapon Skill the way
the challenge reads it (``challenges.duellist.WS_FROM_ROLL_TARGET``: WS = 7 -
roll), halved by ``challenges.characters.as_read`` (rounding up) and read
back: 2+ -> 4+, 3+ -> 5+, 4+ -> 5+, 5+ -> 6+; never better than the roll
written.  ``"unchanged"`` leaves the hit roll alone.  ``melee_weapon`` applies
it, so every reader (the attack sequence, its odds) gets the same roll.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tabletop.board.state import Battlefield, Model
from tabletop.rules.challenges.characters import as_read, is_disgraced
from tabletop.rules.challenges.duellist import WS_FROM_ROLL_TARGET
from tabletop.rules.fight_phase.abilities import (
    KNOWN_PROFILE_KEYS,
    KNOWN_WEAPON_KEYS,
    WeaponAbilities,
    feel_no_pain,
    parse_abilities,
)
from tabletop.rules.fight_phase.amounts import Amount, DiceExpr, parse_amount

__all__ = ["AP_SIGN", "MELEE_WEAPON", "Amount", "DiceExpr", "Weapon", "characteristic",
           "check_profiles", "invulnerable", "melee_weapon", "model_place", "parse_amount",
           "parse_ap", "parse_target", "unknown_words"]

MELEE_WEAPON = "first weapon with a WS"
DISGRACED_HIT_ROLL = "halved-ws"
AP_SIGN = "a positive AP is read as its negative: AP 1 is AP -1"

_INV = re.compile(r"^invulnerable[- ]?(?:save[- ]?)?(\d)\+?$", re.IGNORECASE)


def parse_target(value: object) -> int:
    """A roll needed, ``3`` or ``"3+"``, as an int 2..7."""
    text = str(value).strip().rstrip("+") if isinstance(value, (int, float, str)) else ""
    try:
        v = float(text)
    except ValueError:
        raise ValueError(f"must be a roll needed such as 3 or \"3+\", got {value!r}") from None
    if not v.is_integer() or not 1 <= v <= 7:
        raise ValueError(f"must be a roll needed from 2 to 7, got {value!r}")
    return int(v)


def parse_ap(value: object) -> int:
    """AP as written (0, -1, "-2"), always returned as 0 or negative (``AP_SIGN``)."""
    try:
        v = float(str(value).strip())
    except ValueError:
        raise ValueError(f"must be a number such as 0 or -1, got {value!r}") from None
    if not v.is_integer():
        raise ValueError(f"must be a whole number such as 0 or -1, got {value!r}")
    return -abs(int(v))


@dataclass(frozen=True)
class Weapon:
    """A melee weapon's characteristics, parsed (see the module docstring)."""

    name: str
    A: Amount
    WS: int
    S: int
    AP: int
    D: Amount
    place: str
    abilities: WeaponAbilities = WeaponAbilities()
    written_WS: int | None = None   # the roll written on the weapon, when WS is not it (Disgraced)

    @property
    def key(self) -> tuple:
        return (self.name, str(self.A), self.WS, self.S, self.AP, str(self.D), self.abilities)


def _unit_index(state: Battlefield, unit_id: str) -> int:
    return next(k for k, u in enumerate(state.units) if u.id == unit_id)


def model_place(state: Battlefield, model: Model) -> str:
    """``units[i].models[j]`` for a model (file order)."""
    i = _unit_index(state, model.unit_id)
    j = next(k for k, m in enumerate(state.unit(model.unit_id).models) if m.id == model.id)
    return f"units[{i}].models[{j}]"


def _weapon_place(state: Battlefield, model: Model, k: int) -> str:
    if "weapons" in model.written:
        return f"{model_place(state, model)}.weapons[{k}]"
    return f"units[{_unit_index(state, model.unit_id)}].weapons[{k}]"


def disgraced_roll_needed(model: Model, need: int) -> int:
    """The hit roll ``model`` needs with a weapon written ``need``+ (``DISGRACED_HIT_ROLL``).

    Unchanged unless ``model`` is Disgraced; then ``need`` is read as WS
    ``7 - need``, halved rounding up and read back, never lower than ``need``
    (3 -> WS 4 -> 2 -> 5).
    """
    if not is_disgraced(model):
        return need
    ws = WS_FROM_ROLL_TARGET - need
    return max(need, WS_FROM_ROLL_TARGET - as_read(model, "WS", ws))


def melee_weapon(state: Battlefield, model: Model) -> Weapon | None:
    """The weapon ``model`` fights with (``MELEE_WEAPON``), parsed, or None.

    Its ``WS`` is the roll needed to hit as ``model`` rolls it now: for a
    Disgraced model, halved (``DISGRACED_HIT_ROLL``, ``[rules]
    disgraced_hit_roll``; gambit-challenge.txt, Disgraced).

    Raises
    ------
    ValueError
        One line per bad characteristic: ``place.key: what is wrong``.
    """
    for k, w in enumerate(model.weapons):
        if "WS" not in w:
            continue
        place = _weapon_place(state, model, k)
        problems, vals = [], {}
        for key, parse in (("A", parse_amount), ("WS", parse_target), ("S", parse_target_s),
                           ("AP", parse_ap), ("D", parse_amount)):
            if key not in w:
                problems.append(f"{place}.{key}: missing (needed to make attacks)")
                continue
            try:
                vals[key] = parse(w[key])
            except ValueError as exc:
                problems.append(f"{place}.{key}: {exc}")
        if problems:
            raise ValueError("\n".join(problems))
        if state.rules.disgraced_hit_roll == DISGRACED_HIT_ROLL:
            need = disgraced_roll_needed(model, vals["WS"])
            if need != vals["WS"]:
                vals["written_WS"], vals["WS"] = vals["WS"], need
        abilities, _ = parse_abilities(w.get("rules"))
        return Weapon(str(w.get("name", f"weapon {k + 1}")), place=place, abilities=abilities,
                      **vals)
    return None


def parse_target_s(value: object) -> int:
    """Strength: a whole number of at least 1."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 1 \
            or not float(value).is_integer():
        raise ValueError(f"must be a whole number of at least 1, got {value!r}")
    return int(value)


def characteristic(model: Model, key: str) -> int:
    """A whole-number profile characteristic (``T``, ``Sv``, ``W``); KeyError if missing."""
    return int(model.profile[key])


def invulnerable(model: Model) -> int | None:
    """The model's invulnerable save (profile ``Inv``/``InvSv`` or keyword ``invulnerable-4+``), or None."""
    for key in ("Inv", "InvSv"):
        if key in model.profile:
            return int(str(model.profile[key]).strip().rstrip("+"))
    for k in model.keywords:
        m = _INV.match(k.strip())
        if m:
            return int(m.group(1))
    return None


def check_profiles(state: Battlefield) -> list[str]:
    """Every problem that would stop the attack sequence, one line each (``file: place: ...``).

    Checks each model's ``T``, ``Sv`` and ``W``, its ``FNP`` if given and its
    melee weapon.
    """
    path = state.path or "<map>"
    problems: list[str] = []
    for i, u in enumerate(state.units):
        reported: set[str] = set()
        for m in u.models:
            own = "profile" in m.written
            for key in ("T", "Sv", "W"):
                place = f"{model_place(state, m)}.profile" if own else f"units[{i}].profile"
                if key not in m.profile and (place, key) not in reported:
                    reported.add((place, key))
                    problems.append(f"{path}: {place}.{key}: missing (needed to make attacks)")
            try:
                feel_no_pain(m)
            except ValueError as exc:
                place = f"{model_place(state, m)}.profile" if own else f"units[{i}].profile"
                line = f"{path}: {place}.FNP: {exc}"
                if line not in reported:
                    reported.add(line)
                    problems.append(line)
            try:
                melee_weapon(state, m)
            except ValueError as exc:
                for line in str(exc).splitlines():
                    if line not in reported:
                        reported.add(line)
                        problems.append(f"{path}: {line}")
    return problems


def unknown_words(state: Battlefield) -> list[str]:
    """Warnings for profile keys and weapon ``rules`` words the program does not read.

    One line each, ``file: place: ...``, naming the unit (and weapon) and the
    word, e.g. ``test.toml: units[0].weapons[0].rules: unknown rule word
    'Hatred' on Blade of unit a: the attacks ignore it``.  Profile keys known
    are ``abilities.KNOWN_PROFILE_KEYS``, weapon keys ``KNOWN_WEAPON_KEYS``,
    rules words those ``abilities.parse_abilities`` reads.  A place shared by
    several models (the unit's profile or weapons) is reported once.
    """
    path = state.path or "<map>"
    out: list[str] = []
    seen: set[str] = set()

    def add(line: str) -> None:
        if line not in seen:
            seen.add(line)
            out.append(line)

    for i, u in enumerate(state.units):
        for m in u.models:
            place = f"{model_place(state, m)}.profile" if "profile" in m.written \
                else f"units[{i}].profile"
            for key in m.profile:
                if key not in KNOWN_PROFILE_KEYS:
                    add(f"{path}: {place}: unknown profile key {key!r} of unit {u.id}: "
                        f"the attacks ignore it")
            for k, w in enumerate(m.weapons):
                wplace = _weapon_place(state, m, k)
                name = str(w.get("name", f"weapon {k + 1}"))
                for key in w:
                    if key not in KNOWN_WEAPON_KEYS:
                        add(f"{path}: {wplace}: unknown weapon key {key!r} on {name} of unit "
                            f"{u.id}: the attacks ignore it")
                _, unknown = parse_abilities(w.get("rules"))
                for word in unknown:
                    add(f"{path}: {wplace}.rules: unknown rule word {word!r} on {name} of unit "
                        f"{u.id}: the attacks ignore it")
    return out
