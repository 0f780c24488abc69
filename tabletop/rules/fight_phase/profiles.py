"""Characteristics the attack sequence reads: model profiles and melee weapons.

fight-phase.txt 12.05 and 12.06 say a unit "fights as described in Making
Attacks (04)" without giving section 04; the attack sequence in
``attacks.py`` uses the standard one, and these are the characteristics it
reads (named defaults, see ``attacks.py``):

- profile ``T`` (Toughness), ``Sv`` (Save, 3 means 3+), ``W`` (Wounds); an
  optional invulnerable save as profile ``Inv`` or ``InvSv`` (4 means 4+) or a
  keyword ``invulnerable-4+``; an optional Feel No Pain as profile ``FNP``
  (5 means 5+) or a keyword ``feel-no-pain-5+`` (abilities.py); each a roll
  needed from 2 to 6 (``Inv = 0`` is not a 2+ save: it is a problem);
- a weapon ``{name, A, WS, S, AP, D}``: ``A`` and ``D`` are a number or a dice
  expression (``"D3"``, ``"D6+1"``, ``"2D6"``), ``WS`` the hit roll needed
  (3 or ``"3+"``), ``AP`` 0, -1, -2 ... (a positive AP is read as its
  negative, ``AP_SIGN``; ``unknown_words`` notes it once per weapon, so
  ``check`` and ``fight`` say how it is read), and an optional ``rules`` list of weapon abilities
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
from typing import Any

from tabletop.board.limits import MAX_ATTACKS, MAX_DICE, MAX_SUSTAINED_HITS, MAX_UNIT_ATTACKS
from tabletop.board.state import Battlefield, Model
from tabletop.rules.challenges.characters import as_read, is_disgraced
from tabletop.rules.challenges.duellist import WS_FROM_ROLL_TARGET
from tabletop.rules.fight_phase.abilities import (
    KNOWN_PROFILE_KEYS,
    KNOWN_WEAPON_KEYS,
    WeaponAbilities,
    feel_no_pain,
    fnp_keyword_problem,
    parse_abilities,
    roll_needed,
    rule_word_problems,
)
from tabletop.rules.fight_phase.amounts import Amount, DiceExpr, parse_amount

__all__ = ["AP_SIGN", "INV_KEYS", "MELEE_WEAPON", "Amount", "DiceExpr", "Weapon",
           "characteristic", "check_profiles", "defence_keyword_problems", "invulnerable",
           "melee_weapon", "model_place", "parse_amount", "parse_ap", "parse_target",
           "positive_ap_note", "unknown_words"]

MELEE_WEAPON = "first weapon with a WS"
DISGRACED_HIT_ROLL = "halved-ws"
AP_SIGN = "a positive AP is read as its negative: AP 1 is AP -1"

_INV = re.compile(r"^invulnerable[- ]?(?:save[- ]?)?(\d+)\+?$", re.IGNORECASE)
#: the profile keys of an invulnerable save, read in this order (the first present counts)
INV_KEYS = ("Inv", "InvSv")


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
        problems: list[str] = []
        vals: dict[str, Any] = {}     # the Weapon's keyword arguments, each parsed by its own parser
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
    """The model's invulnerable save (profile ``Inv``/``InvSv`` or keyword ``invulnerable-4+``), or None.

    Read like Feel No Pain (``abilities.roll_needed``): a roll needed from 2
    to 6.  A keyword with a value outside that is not read
    (``defence_keyword_problems`` reports it).

    Raises
    ------
    ValueError
        For a profile ``Inv`` / ``InvSv`` that is not a roll from 2 to 6 (0 is
        not a 2+ save, 7 not "no save").
    """
    for key in INV_KEYS:
        if key in model.profile:
            return roll_needed(model.profile[key], 4)
    for k in model.keywords:
        m = _INV.match(k.strip())
        if m and 2 <= int(m.group(1)) <= 6:
            return int(m.group(1))
    return None


def defence_keyword_problems(model: Model) -> list[str]:
    """Keywords written as an invulnerable save or a Feel No Pain whose roll is outside 2 to 6."""
    out = []
    for k in model.keywords:
        m = _INV.match(k.strip())
        if m and not 2 <= int(m.group(1)) <= 6:
            out.append(f"{k!r}: an invulnerable save must be a roll needed from 2 to 6, such as "
                       f"invulnerable-4+")
        why = fnp_keyword_problem(k)
        if why:
            out.append(why)
    return out


def check_profiles(state: Battlefield) -> list[str]:
    """Every problem that would stop the attack sequence, one line each (``file: place: ...``).

    Checks each model's ``T``, ``Sv`` and ``W``, its ``FNP`` and ``Inv`` /
    ``InvSv`` if given (a roll needed from 2 to 6), keywords written as an
    invulnerable save or a Feel No Pain, and its melee weapon.  ``tabletop
    check`` and ``tabletop fight`` both stop on these (exit 2); ``check``
    lets a layout map leave the profile out (``missing`` lines).
    """
    path = state.path or "<map>"
    problems: list[str] = []
    reported: set[object] = set()

    def add(line: str) -> None:
        if line not in reported:
            reported.add(line)
            problems.append(line)

    for i, u in enumerate(state.units):
        most, over_one = 0, False
        for m in u.models:
            own = "profile" in m.written
            pplace = f"{model_place(state, m)}.profile" if own else f"units[{i}].profile"
            for key in ("T", "Sv", "W"):
                if key not in m.profile:
                    add(f"{path}: {pplace}.{key}: missing (needed to make attacks)")
            for key, read in (("FNP", feel_no_pain), ("Inv", invulnerable)):
                try:
                    read(m)
                except ValueError as exc:
                    if key == "Inv":
                        key = next(k for k in INV_KEYS if k in m.profile)
                    add(f"{path}: {pplace}.{key}: {exc}")
            for line in defence_keyword_problems(m):
                kplace = f"units[{i}].keywords" if any(
                    line.startswith(repr(k)) for k in u.keywords) \
                    else f"{model_place(state, m)}.keywords"
                add(f"{path}: {kplace}: {line}")
            try:
                weapon = melee_weapon(state, m)
            except ValueError as exc:
                for line in str(exc).splitlines():
                    add(f"{path}: {line}")
                continue
            if weapon is not None:
                a = weapon.A
                if (a.n if isinstance(a, DiceExpr) else a) > (
                        MAX_DICE if isinstance(a, DiceExpr) else MAX_ATTACKS):
                    over_one = True         # the map's own line says so (board.limits)
                # each hit may bring Sustained Hits X more: the wound roll's dice
                sustained = most_of(weapon.abilities.sustained_hits)
                if sustained > MAX_SUSTAINED_HITS:
                    over_one = True         # the map's own line says so (board.limits)
                most += most_of(a) * (1 + sustained)
        if most > MAX_UNIT_ATTACKS and not over_one:
            add(f"{path}: units[{i}]: its models' attacks could total {most} (each model's "
                f"melee weapon's A at its highest, times 1 + its Sustained Hits X), more than "
                f"{MAX_UNIT_ATTACKS} (MAX_UNIT_ATTACKS): a count of that many dice takes too "
                f"long to weigh")
    return problems


def most_of(amount: Amount) -> int:
    """The highest ``amount`` can be: the number, or every die showing its top face."""
    if isinstance(amount, DiceExpr):
        return amount.n * amount.sides + amount.plus
    return int(amount)


def positive_ap_note(weapon: dict) -> str | None:
    """How a positive AP is read (``AP_SIGN``), e.g. ``is positive: it is read as AP -1 (a save
    of 3+ needs 4+)``, or None for AP 0, a negative AP or one that cannot be read."""
    if "AP" not in weapon or isinstance(weapon["AP"], bool):
        return None
    try:
        v = float(str(weapon["AP"]).strip())
    except ValueError:
        return None
    if not v.is_integer() or v <= 0:
        return None
    ap = parse_ap(weapon["AP"])
    return f"is positive: it is read as AP {ap} (a save of 3+ needs {3 - ap}+)"


def unknown_words(state: Battlefield) -> list[str]:
    """Warnings for profile keys and weapon ``rules`` words the program does not read,
    and a note for each weapon with a positive AP (``AP_SIGN``: read as its negative);
    a warning for a melee weapon with ``A = 0`` or ``D = 0`` and for a model whose weapons have no ``WS``
    (it makes no attacks, ``MELEE_WEAPON``).

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
                for word, why in rule_word_problems(w.get("rules")):
                    if why is None:
                        add(f"{path}: {wplace}.rules: unknown rule word {word!r} on {name} of "
                            f"unit {u.id}: the attacks ignore it")
                    else:
                        add(f"{path}: {wplace}.rules: {word!r} on {name} of unit {u.id}: {why}: "
                            f"the attacks ignore it")
                note = positive_ap_note(w)
                if note:
                    add(f"{path}: {wplace}.AP: AP {w['AP']} on {name} of unit {u.id} {note}")
                if "WS" in w and str(w.get("A", "")).strip() == "0":
                    add(f"{path}: {wplace}.A: A = 0 on {name} of unit {u.id}: it makes no "
                        f"attacks")
                if "WS" in w and str(w.get("D", "")).strip() == "0":
                    add(f"{path}: {wplace}.D: D = 0 on {name} of unit {u.id}: its attacks "
                        f"that wound inflict no damage")
            if m.weapons and not any("WS" in w for w in m.weapons):
                place = f"{model_place(state, m)}.weapons" if "weapons" in m.written \
                    else f"units[{i}].weapons"
                add(f"{path}: {place}: no weapon of unit {u.id} has a WS (the roll to hit, "
                    f"MELEE_WEAPON): its models make no attacks")
    return out
