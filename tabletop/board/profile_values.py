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
- a weapon's ``AP``: within MAX_CHARACTERISTIC either sign (the fight phase's weapons
  run from 0 to -6; its sign is the ruleset's to read).
- a weapon's ``rules``: a list of names (``rules = ["Lethal Hits"]``, docs/map-format.md);
  a single text is refused, not read as one rule.  The numbers of the rules the attacks
  read are bounded, whatever else the word says (the ruleset warns about a word it does
  not know or a value it does not allow): ``"Sustained Hits X"`` at most
  MAX_SUSTAINED_HITS (a dice X by its largest roll), the N of ``"+N to hit"`` /
  ``"-N to wound"`` and ``"Duellist's Edge (N)"`` at most MAX_CHARACTERISTIC.
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
    MAX_SUSTAINED_HITS,
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
        if text.isdigit() and _digits(text) > MAX_ATTACKS:
            return f"must be at most {MAX_ATTACKS} (MAX_ATTACKS), got {value!r}"
        m = _DICE.match(text)
        if m and (_digits(m.group(1) or "1") > MAX_DICE or _digits(m.group(3) or "0") > MAX_ATTACKS):
            return (f"rolls at most {MAX_DICE} dice (MAX_DICE) plus at most {MAX_ATTACKS}, "
                    f"got {value!r}")
    return None


# a rule word as compared: lowercase, hyphens, underscores and brackets as spaces (a
# leading sign kept), as ``rules/fight_phase/abilities.keyword_key`` reads it
_SEPARATORS = str.maketrans({"-": " ", "_": " ", "(": " ", ")": " "})
_SUSTAINED = re.compile(r"^sustained hits? (.*)$")
_SUSTAINED_DICE = re.compile(r"^(\d*)d(\d+)(?:\+(\d+))?$")
_MODIFIER = re.compile(r"^[+-]?\s*(\d+) to (?:hit|wound)s?$")
_EDGE = re.compile(r"duell?ist'?s? ?edge (\d+)")
_SIGNED_WHOLE = re.compile(r"^\s*[+-]?\s*(\d+)\s*$")
_BIG = 10 ** 9                  # any number of more digits reads as this (no 5,000-digit int)


def _digits(text: str) -> int:
    """A run of digits as a number, capped at ``_BIG`` (so no huge text is converted)."""
    text = text.lstrip("0") or "0"
    return int(text) if len(text) <= 9 else _BIG


def _rule_word_problem(word: str) -> str | None:
    """What is wrong with one ``rules`` word's number, or None (module docstring)."""
    text = word.strip().lower()
    sign = text[:1] if text[:1] in ("+", "-") else ""
    key = sign + " ".join(text[len(sign):].translate(_SEPARATORS).split())
    m = _SUSTAINED.match(key)
    if m:
        x = m.group(1).replace(" ", "")
        dice = _SUSTAINED_DICE.match(x)
        if x.isdigit():
            largest = _digits(x)
        elif dice:
            sides = _digits(dice.group(2))
            largest = _digits(dice.group(1) or "1") * sides + _digits(dice.group(3) or "0")
        else:
            return None                 # the ruleset says what X must be
        if largest > MAX_SUSTAINED_HITS:
            return (f"Sustained Hits X must be at most {MAX_SUSTAINED_HITS} (MAX_SUSTAINED_HITS; "
                    f"dice by their largest roll), got {word!r}")
        return None
    m = _MODIFIER.match(key) or _EDGE.search(key)
    if m and _digits(m.group(1)) > MAX_CHARACTERISTIC:
        return f"its number must be at most {MAX_CHARACTERISTIC} (MAX_CHARACTERISTIC), got {word!r}"
    return None


def _rules_problems(rules: Any, place: str) -> list[str]:
    """A weapon's ``rules``: a list, each word's number within its bound."""
    if not isinstance(rules, list):
        shown = repr(rules) if isinstance(rules, str) else type(rules).__name__
        return [f"{place}.rules: must be a list of names (rules = [\"Lethal Hits\"]), got {shown}"]
    out = []
    for n, word in enumerate(rules):
        why = _rule_word_problem(word) if isinstance(word, str) else None
        if why:
            out.append(f"{place}.rules[{n}]: {why}")
    return out


def _ap(value: Any) -> str | None:
    """A bound on a weapon's ``AP`` (either sign); its form is the ruleset's to check."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        big = not abs(value) <= MAX_CHARACTERISTIC         # also NaN
    elif isinstance(value, str) and _SIGNED_WHOLE.match(value):
        big = _digits(_SIGNED_WHOLE.match(value).group(1)) > MAX_CHARACTERISTIC  # type: ignore[union-attr]
    else:
        return None
    if big:
        return (f"must be from -{MAX_CHARACTERISTIC} to {MAX_CHARACTERISTIC} (MAX_CHARACTERISTIC), "
                f"got {value!r}")
    return None


def weapon_problems(weapon: dict[str, Any], place: str) -> list[str]:
    """Bounds on one weapon table's values (see the module docstring).

    Parameters
    ----------
    weapon : dict
        One ``weapons`` table as the file wrote it (not changed).
    place : str
        Where it is in the file (``units[0].weapons[1]``), for the messages.

    Returns
    -------
    list of str
        One ``place.key: what is wrong`` line per bad value (``place.rules[n]`` for a
        rule word), no file name.
    """
    out: list[str] = []
    for key, value in weapon.items():
        if key == "rules":
            out += _rules_problems(value, place)
            continue
        why = _amount(value) if key in ("A", "D") else _ap(value) if key == "AP" else None
        why = why or _finite(value)
        if why:
            out.append(f"{place}.{key}: {why}")
    return out
