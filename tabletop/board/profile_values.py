"""Profile and weapon values checked as numbers, with their bounds, when a map loads.

A profile or a weapon is a free table in the map file (docs/map-format.md), read by the
ruleset when it fights.  What its rules read as a number is checked here, at load,
so ``check`` refuses it exactly as ``fight`` would and no value reaches the dice
that they cannot use (issue 11: ``Attacks = 0.5``, ``Sv = "3+"``, ``T = "four"``,
a weapon of 10^12 attacks).  Keys the rulesets check themselves with their own
words (``Inv``, ``InvSv``, ``FNP``; a weapon's ``WS``, ``S``, ``AP`` and a dice
expression's form) are left to them; here only bounds they do not know.

- fight-phase profile: ``T``, ``S``, ``WS``, ``I``/``Init``, ``Ld``, ``M``, ``OC``
  whole numbers 0..MAX_CHARACTERISTIC (``"3+"`` and ``"6\\""`` read as 3 and 6),
  ``A`` 0..MAX_ATTACKS, ``W`` 1..MAX_WOUNDS, ``Sv`` a roll needed 1..7 (named default
  ``SAVE_ROLLS``: 7 means no armour save).  A value written ``"3+"`` is stored as 3,
  so every reader gets a number.
- rank-and-flank profile (``rules/rank_and_flank/profiles.py`` STATS, any case):
  ``Move`` a number of inches 0..MAX_CHARACTERISTIC (a Move of 4.5 is allowed),
  ``Attacks`` 0..MAX_ATTACKS and ``Wounds`` 1..MAX_WOUNDS whole, the others whole
  0..MAX_CHARACTERISTIC.
- a weapon's ``A`` and ``D`` (either ruleset): at most MAX_ATTACKS as a number, at
  most MAX_DICE dice (and a bonus of at most MAX_ATTACKS) as a dice expression.
- any other number in a profile or a weapon: finite, within MAX_ABS_NUMBER.
"""

from __future__ import annotations

import re
from typing import Any

from tabletop.board.limits import (
    MAX_ABS_NUMBER,
    MAX_ATTACKS,
    MAX_CHARACTERISTIC,
    MAX_DICE,
    MAX_WOUNDS,
)

__all__ = ["SAVE_ROLLS", "profile_problems", "weapon_problems"]

#: named default: the rolls an armour save ``Sv`` may need, 1 to 7 (a 7+ save is no save, as
#: datasheets print "-" for a model without one; 1+ appears on a few vehicles' saves after
#: modifiers): outside it a save is a typing slip
SAVE_ROLLS = (1, 7)

_WHOLE = re.compile(r"^\s*(\d+)\s*[+\"]?\s*$")
_DICE = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*(?:\+\s*(\d+))?\s*$")

# fight-phase profile keys read as whole numbers: key -> (lowest, highest)
_FIGHT_WHOLE = {"T": (1, MAX_CHARACTERISTIC), "W": (1, MAX_WOUNDS), "A": (0, MAX_ATTACKS),
                "S": (0, MAX_CHARACTERISTIC), "WS": (0, MAX_CHARACTERISTIC),
                "I": (0, MAX_CHARACTERISTIC), "Init": (0, MAX_CHARACTERISTIC),
                "Ld": (0, MAX_CHARACTERISTIC), "M": (0, MAX_CHARACTERISTIC),
                "OC": (0, MAX_CHARACTERISTIC), "Sv": SAVE_ROLLS}
# rank-and-flank stats (lower case): key -> (lowest, highest, whole)
_RNF = {"move": (0, MAX_CHARACTERISTIC, False), "attacks": (0, MAX_ATTACKS, True),
        "wounds": (1, MAX_WOUNDS, True), "skill": (0, MAX_CHARACTERISTIC, True),
        "power": (0, MAX_CHARACTERISTIC, True), "defense": (0, MAX_CHARACTERISTIC, True),
        "discipline": (0, MAX_CHARACTERISTIC, True)}


def _finite(value: Any) -> str | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool) \
            and not abs(value) <= MAX_ABS_NUMBER:
        return f"must be a finite number within {MAX_ABS_NUMBER:g} (MAX_ABS_NUMBER), got {value!r}"
    return None


def _whole(value: Any, low: int, high: int, whole: bool = True) -> tuple[Any, str | None]:
    """``value`` read as a number from ``low`` to ``high`` (``"3+"`` is 3): (number, problem)."""
    if isinstance(value, bool):
        return value, f"must be a number, not true/false (got {str(value).lower()})"
    if isinstance(value, str):
        m = _WHOLE.match(value)
        if not m:
            return value, f"must be a number from {low} to {high}, got {value!r}"
        number: Any = int(m.group(1))
    elif isinstance(value, (int, float)):
        number = value
    else:
        return value, f"must be a number from {low} to {high}, got {value!r}"
    if not low <= number <= high:     # also NaN
        return value, f"must be a number from {low} to {high}, got {value!r}"
    if whole and not float(number).is_integer():
        return value, f"must be a whole number from {low} to {high}, got {value!r}"
    return (int(number) if float(number).is_integer() else number), None


def profile_problems(profile: dict[str, Any], ruleset: str, place: str) -> list[str]:
    """Check ``profile`` in place for ``ruleset``; values written ``"3+"`` become 3.

    Parameters
    ----------
    profile : dict
        A unit's or a model's ``profile`` table as the file wrote it (changed in place).
    ruleset : "fight-phase" | "rank-and-flank"
    place : str
        Where it is in the file (``units[0].profile``), for the messages.

    Returns
    -------
    list of str
        One ``place.key: what is wrong`` line per bad value (no file name).
    """
    out: list[str] = []
    for key, value in list(profile.items()):
        bound = None
        if ruleset == "rank-and-flank" and key.lower() in _RNF:
            low, high, whole = _RNF[key.lower()]
            bound = (low, high, whole)
        elif ruleset != "rank-and-flank" and key in _FIGHT_WHOLE:
            low, high = _FIGHT_WHOLE[key]
            bound = (low, high, True)
        if bound is None:
            why = _finite(value)
        else:
            number, why = _whole(value, *bound)
            if why is None and isinstance(value, str):
                profile[key] = number       # "3+" is stored as 3: every reader gets a number
        if why:
            out.append(f"{place}.{key}: {why}")
    return out


def _amount(value: Any) -> str | None:
    """A bound on a weapon's ``A`` or ``D``; the form itself is the ruleset's to check."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if not value <= MAX_ATTACKS:
            return f"must be at most {MAX_ATTACKS} (MAX_ATTACKS), got {value!r}"
    elif isinstance(value, str):
        text = value.strip()
        if text.isdigit() and int(text) > MAX_ATTACKS:
            return f"must be at most {MAX_ATTACKS} (MAX_ATTACKS), got {value!r}"
        m = _DICE.match(text)
        if m and (int(m.group(1) or 1) > MAX_DICE or int(m.group(3) or 0) > MAX_ATTACKS):
            return (f"rolls at most {MAX_DICE} dice (MAX_DICE) plus at most {MAX_ATTACKS}, "
                    f"got {value!r}")
    return None


def weapon_problems(weapon: dict[str, Any], place: str) -> list[str]:
    """Bounds on one weapon table's numbers (see the module docstring): ``place.key: ...``."""
    out: list[str] = []
    for key, value in weapon.items():
        why = _amount(value) if key in ("A", "D") else None
        why = why or _finite(value)
        if why:
            out.append(f"{place}.{key}: {why}")
    return out

