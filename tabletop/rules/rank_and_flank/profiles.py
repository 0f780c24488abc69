"""Profiles and keywords the rank-and-flank rules read.

A rank-and-flank profile is ``{Move, Skill, Power, Defense, Attacks, Wounds,
Discipline}`` (docs/map-format.md example).  Keywords are the free words of the map
file; a model's keywords include its unit's.  The words this ruleset
understands (case-insensitive):

=====================  ==================================================
keyword                meaning (rank-and-flank-combat.txt clause)
=====================  ==================================================
spear-and-shield       third rank supports unless a charge bonus (Who attacks)
lance + cavalry        narrow lance fights with both flank files (Who attacks);
                       +LANCE_CHARGE_POWER Power when it charged (Charge bonuses)
charge-power+N         +N Power in the first round after its own charge
frenzy                 +FRENZY_ATTACKS Attacks in the first round after a charge
to-hit+N / to-hit-N    modifies its attack rolls (Attack roll)
hard-to-hit            enemies' attack rolls against it -1 (Attack roll)
reroll-misses          re-rolls failed attack rolls (Attack roll)
reroll-ones            re-rolls attack rolls of 1 (Attack roll)
force-reroll-hits      enemies re-roll their successful attack rolls against it
halberd                enemy saves never better than 4+ (Damage save)
poisoned-attacks       the defender re-rolls saves of 6 (Damage save)
lethal-strikes         2 wounds per failed save vs models with Wounds > 1
fearless               ignores the score difference (Break tests)
reanimated, demonic,   crumble D3 wounds instead of a break test
construct
war-banner             +WAR_BANNER_SCORE combat score (Combat score)
monster, chariot       on a commander: it fights as part of its mount
heavy-infantry, ...    troop types: how many models make a rank (RANK_MODELS)
=====================  ==================================================

Named defaults (the text is silent; what a player of the game expects):

LANCE_CHARGE_POWER = 2
    A lance's weapon charge bonus, as The Old World's lance (+2 Strength on
    the charge).
FRENZY_ATTACKS = 1
    Frenzy's first-round effect (+1 Attack, as The Old World's Frenzy).
WAR_BANNER_SCORE = 1, STANDARD_SCORE = 1
    A War Banner is +1; a living model with ``role = "standard"`` (a
    standard bearer) is +1, as the banners of The Old World.
MAX_RANK_BONUS = 2
    "+1 for a second rank and +1 for a third".
RANK_MODELS
    How many models make a rank that counts (rank bonus and break tests):
    the map's ``[rules] rank_min_models`` when it sets one, else by troop
    type keyword as The Old World's troop type table (heavy infantry and
    heavy cavalry 4, monstrous infantry/cavalry and light chariots 3), else
    ``RulesConfig.rank_min_models`` (5, regular infantry and cavalry).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any, cast

from tabletop.board.limits import MAX_UNIT_ATTACKS
from tabletop.board.state import Battlefield, Model, Unit
from tabletop.errors import MapValidationError

STATS = ("Move", "Skill", "Power", "Defense", "Attacks", "Wounds", "Discipline")

SPEAR_AND_SHIELD = "spear-and-shield"
LANCE = "lance"
CAVALRY = "cavalry"
HALBERD = "halberd"
POISONED = ("poisoned-attacks", "poisoned")
LETHAL = "lethal-strikes"
FEARLESS = "fearless"
CRUMBLES = ("reanimated", "demonic", "construct")
WAR_BANNER = "war-banner"
FRENZY = "frenzy"
REROLL_MISSES = "reroll-misses"
REROLL_ONES = "reroll-ones"
FORCE_REROLL_HITS = "force-reroll-hits"
HARD_TO_HIT = "hard-to-hit"
MOUNTS = ("monster", "chariot")

LANCE_CHARGE_POWER = 2
FRENZY_ATTACKS = 1
WAR_BANNER_SCORE = 1
STANDARD_SCORE = 1
MAX_RANK_BONUS = 2
NARROW_LANCE_FILES = 4          # "fewer than four models wide"
RANK_MODELS = {"heavy-infantry": 4, "heavy-cavalry": 4, "monstrous-infantry": 3,
               "monstrous-cavalry": 3, "light-chariot": 3}

_TO_HIT = re.compile(r"^to-hit([+-]\d+)$")
_CHARGE_POWER = re.compile(r"^charge-power\+(\d+)$")


def stat(profile: dict[str, Any], name: str) -> Any:
    """A stat from a profile (key matched case-insensitively): an int when it is
    whole, else a float (a Move of 0.5"); KeyError when absent, ValueError when
    not a number."""
    for k, v in profile.items():
        if k.lower() == name.lower():
            if isinstance(v, bool):
                raise ValueError(name)
            f = float(v)
            return int(f) if f.is_integer() else f
    raise KeyError(name)


def model_stat(model: Model, name: str) -> int:
    return stat(model.profile, name)


@lru_cache(maxsize=4096)
def _words(keywords: tuple[str, ...]) -> frozenset[str]:
    return frozenset(k.lower() for k in keywords)


def has(model_or_unit: Model | Unit, *keywords: str) -> bool:
    """True when it has any of ``keywords`` (case-insensitive)."""
    words = _words(tuple(model_or_unit.keywords))
    return any(k.lower() in words for k in keywords)


class Indexed:
    """A read-only view of a Battlefield with constant-time ``unit``/``model``
    lookups (the round's rules read thousands of times when working out odds).
    Everything else is the state's own."""

    def __init__(self, state: Battlefield | Indexed):
        base = state._state if isinstance(state, Indexed) else state
        self._state: Battlefield = base
        self._units = {u.id: u for u in base.units}
        self._models = {m.id: m for u in base.units for m in u.models}

    def unit(self, unit_id: str) -> Unit:
        return self._units[unit_id]

    def model(self, model_id: str) -> Model:
        return self._models[model_id]

    def has_unit(self, unit_id: str) -> bool:
        return unit_id in self._units

    def __getattr__(self, name: str) -> Any:
        return getattr(self._state, name)


def indexed(state: Battlefield) -> Battlefield:
    """``Indexed(state)``, typed as the ``Battlefield`` it stands in for (it answers every
    ``Battlefield`` attribute: ``unit``/``model`` itself, the rest through ``__getattr__``)."""
    # cast: mypy cannot see that a __getattr__ proxy has a Battlefield's attributes
    return cast(Battlefield, Indexed(state))


def unit_has(state: Battlefield, unit_id: str, *keywords: str, alive: Iterable[str] | None = None) -> bool:
    """The unit, or every living model of it, has one of ``keywords``."""
    unit = state.unit(unit_id)
    if has(unit, *keywords):
        return True
    keep = None if alive is None else set(alive)
    models = [m for m in unit.models if keep is None or m.id in keep]
    return bool(models) and all(has(m, *keywords) for m in models)


def to_hit_modifier(model: Model) -> int:
    """Sum of the model's ``to-hit+N`` / ``to-hit-N`` keywords."""
    total = 0
    for k in model.keywords:
        m = _TO_HIT.match(k.lower())
        if m:
            total += int(m.group(1))
    return total


def charge_power(model: Model) -> int:
    """Power a model adds in the first round after its own charge (lance, charge-power+N)."""
    bonus = LANCE_CHARGE_POWER if has(model, LANCE) else 0
    for k in model.keywords:
        m = _CHARGE_POWER.match(k.lower())
        if m:
            bonus += int(m.group(1))
    return bonus


def is_commander(model: Model) -> bool:
    """A commander that fights separately (one riding a monster or chariot fights as its mount)."""
    return (model.role or "") == "commander" and not has(model, *MOUNTS)


def retinue_profile(state: Battlefield, unit_id: str, alive: Iterable[str] | None = None) -> Model:
    """The model whose profile stands for the unit's rank-and-file: the first
    living non-commander model, else (the retinue gone) its commander."""
    keep = None if alive is None else set(alive)
    models = [m for m in state.unit(unit_id).models if keep is None or m.id in keep]
    for m in models:
        if (m.role or "") != "commander":
            return m
    return models[0]


def rank_models(state: Battlefield, unit_id: str) -> int:
    """How many models make a rank that counts for this unit (see RANK_MODELS)."""
    if "rank_min_models" in state.rules.written:
        return state.rules.rank_min_models
    unit = state.unit(unit_id)
    words = _words(tuple(unit.keywords))
    for word, n in RANK_MODELS.items():
        if word in words:
            return n
    return state.rules.rank_min_models


def _key(profile: dict[str, Any], name: str) -> str | None:
    """The key of ``profile`` that holds the stat ``name`` (any case), or None."""
    return next((k for k in profile if k.lower() == name.lower()), None)


def _not_a_number(where: str, i: int, unit: Unit, j: int, model: Model, name: str) -> str:
    """The line for a stat that is not a number, at the place the file wrote it: the unit's
    ``profile`` when the model only inherits the unit's value (one line for the unit, not
    one per model), else the model's own."""
    key = _key(model.profile, name) or name
    ukey = _key(unit.profile, name)
    if ukey is not None and unit.profile[ukey] is model.profile[key]:
        return f"{where}: units[{i}].profile.{ukey}: unit {unit.id!r}: {name} is not a number"
    return (f"{where}: units[{i}].models[{j}].profile.{key}: model {model.id}: "
            f"{name} is not a number")




def check_profiles(state: Battlefield, unit_ids: Iterable[str]) -> None:
    """Every model of these units has every stat the rules read.

    Raises
    ------
    MapValidationError
        One line per unit and missing stat, naming the unit; one line per stat that is not
        a number, at the place the file wrote it (``units[0].profile.Attacks`` once for a
        value every model inherits, ``units[0].models[2].profile.Attacks`` for a model's own);
        one line for a unit whose models' Attacks total more than ``MAX_UNIT_ATTACKS``.
    """
    problems = []
    where = state.path or "<map>"
    index = {u.id: i for i, u in enumerate(state.units)}
    for uid in unit_ids:
        unit = state.unit(uid)
        missing: list[str] = []
        for j, m in enumerate(unit.models):
            for name in STATS:
                try:
                    stat(m.profile, name)
                except KeyError:
                    if name not in missing:
                        missing.append(name)
                except (TypeError, ValueError):
                    line = _not_a_number(where, index[uid], unit, j, m, name)
                    if line not in problems:
                        problems.append(line)
        if missing:
            problems.append(
                f"{where}: unit {uid!r}: profile has no {', '.join(missing)} "
                f"(rank-and-flank needs {', '.join(STATS)})")
        elif not problems:
            most = sum(model_stat(m, "Attacks") for m in unit.models)
            if most > MAX_UNIT_ATTACKS:
                problems.append(
                    f"{where}: units[{index[uid]}]: its models' Attacks total {most}, more than "
                    f"{MAX_UNIT_ATTACKS} (MAX_UNIT_ATTACKS): a count of that many dice takes "
                    f"too long to weigh")
    if problems:
        raise MapValidationError(problems)
