"""Weapon abilities and defensive profile keys the attack sequence reads, parsed once.

fight-phase.txt 12.05 and 12.06 send a fighting unit to "Making Attacks (04)"
without giving that section; players put the common weapon abilities in a
weapon's ``rules`` list and expect them to count.  This module reads those
words once into a typed ``WeaponAbilities`` kept on the parsed ``Weapon``
(profiles.py); ``attacks.py`` reads its fields.  Each reading is a
named default (README "Weapon abilities"):

``CRITICAL_HIT`` / ``CRITICAL_WOUND`` (6)
    An unmodified hit roll of 6 is a Critical Hit and always hits; an
    unmodified wound roll of 6 is a Critical Wound and always wounds; an
    unmodified 1 always fails (``attacks.succeeds``).
Lethal Hits
    A Critical Hit wounds the target without a wound roll (it is not a
    Critical Wound).
Sustained Hits X
    A Critical Hit scores X more hits (X a number, or dice such as ``D3``
    rolled once per Critical Hit and logged); the extra hits roll to wound.
Devastating Wounds
    A Critical Wound allows no saving throw of any kind; how its damage is
    dealt is the ``[rules]`` option ``devastating_wounds`` (below).
Anti-KEYWORD X+
    Against a target unit with KEYWORD (the unit's or one of its models'
    keywords; case, hyphens and spaces do not matter) an unmodified wound
    roll of X+ is a Critical Wound.
Twin-linked
    The wound roll is re-rolled.
Re-rolls (``REROLL_WHICH``)
    ``re-roll hits`` / ``re-roll hit rolls`` re-roll every failed hit roll,
    ``re-roll hits of 1`` / ``re-roll hit rolls of 1`` / ``re-roll 1s to
    hit`` only the 1s; the same with ``wound(s)``.  Twin-linked is
    ``re-roll wounds``.  A player re-rolls the dice that failed, never a
    success (no fishing for Critical Hits), and a die is re-rolled at most
    once.
Lance (``LANCE_BONUS``)
    +1 to the wound roll when the bearer's unit made a charge move this turn
    (the map's ``charged = true``).
``+N to hit`` / ``-N to hit`` / ``+N to wound`` / ``-N to wound``
    A modifier of the weapon's own.
Modifier cap (``[rules]`` ``roll_modifier_cap``, ``ROLL_MODIFIER_CAP``)
    All modifiers to one hit roll, or to one wound roll, add up to at most
    +1 and at least -1.
Invulnerable save
    Profile ``Inv`` (or ``InvSv``, as the gambit challenge reads it; 4 means
    4+) or a keyword ``invulnerable-4+``: AP does not change it; it is used
    when it needs less than the AP-modified armour save.
Feel No Pain X+ (``FNP_DICE``)
    Profile ``FNP`` (5 means 5+) or a model/unit keyword ``feel-no-pain-5+``
    (``"Feel No Pain 5+"``, ``fnp-5+``): each time the model would lose a
    wound, one D6 is rolled and X+ ignores that wound; the dice for one
    attack's damage are rolled together, one per point of damage.

A word the program does not know (or a known word written without its
value, such as ``"Sustained Hits"``) is listed in ``unknown`` and reported
by ``tabletop check`` and ``tabletop fight`` as a warning naming the unit,
the weapon and the word: it is never silently ignored.  So is a known word
with a value its ability does not allow (``rule_word_problems`` says what it
needs): Sustained Hits X needs X of at least 1 or dice (``"Sustained Hits
-1"`` and ``"Sustained Hits 0"`` are not read), +/-N to hit or wound needs N
of at least 1 (``"+0 to hit"``), Anti-KEYWORD X+ needs X from 2 to 6.  A
profile ``FNP``, ``Inv`` or ``InvSv`` must be a roll needed from 2 to 6
(``roll_needed``): anything else stops the attacks (``profiles.check_profiles``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tabletop.board.state import Model
from tabletop.rules.fight_phase.amounts import Amount, DiceExpr, parse_amount

__all__ = ["CRITICAL_HIT", "CRITICAL_WOUND", "DEVASTATING_MODES",
           "FNP_DICE", "KNOWN_PROFILE_KEYS", "KNOWN_WEAPON_KEYS", "LANCE_BONUS",
           "REROLL_WHICH", "ROLL_MODIFIER_CAP", "WeaponAbilities", "capped", "feel_no_pain",
           "fnp_keyword_problem", "keyword_key", "parse_abilities", "roll_needed",
           "rule_word_problems"]

CRITICAL_HIT = 6
CRITICAL_WOUND = 6
LANCE_BONUS = 1
#: named default (and ``[rules] roll_modifier_cap``): modifiers to one roll add to at most +/-1
ROLL_MODIFIER_CAP = 1
#: named default: a re-roll re-rolls the dice that failed ("ones": only the 1s)
REROLL_WHICH = "failed"
#: named default: Feel No Pain rolls one die per point of an attack's damage, together
FNP_DICE = "one D6 per point of damage, rolled together; X+ ignores that point"
#: the values of ``[rules] devastating_wounds``:
#: "no-save": a Critical Wound gets no save; its damage goes to the allocated model, excess lost;
#: "mortal": its damage becomes mortal wounds, allocated one model after another (they spill over)
DEVASTATING_MODES = ("no-save", "mortal")

#: profile keys the fight phase reads (T, Sv, W; Inv/InvSv, FNP) or other parts of the
#: program read (M, Ld, OC in reports and the gambit challenge's WS, S, I, Init, A)
KNOWN_PROFILE_KEYS = frozenset({"M", "T", "Sv", "W", "Ld", "OC", "Inv", "InvSv", "FNP",
                                "WS", "S", "I", "Init", "A"})
#: weapon keys read by the attack sequence or the gambit challenge (I, IM, AM, SM)
KNOWN_WEAPON_KEYS = frozenset({"name", "A", "WS", "S", "AP", "D", "rules", "keywords",
                               "I", "IM", "AM", "SM"})

_AMOUNT = r"(\d+|\d*d[36](?: ?\+ ?\d+)?)"
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile(p)) for name, p in (
        ("lethal", r"^lethal hits?$"),
        ("sustained", rf"^sustained hits? {_AMOUNT}$"),
        ("devastating", r"^devastating wounds?$"),
        ("anti", r"^anti (.+?) ([2-6])\+?$"),
        ("twin", r"^twin ?linked$"),
        ("reroll", r"^re ?roll (hit|wound)s?(?: rolls?)?( of (?:1|one)s?)?$"),
        ("reroll_ones", r"^re ?roll (?:1|one)s? (?:to|on) (hit|wound)s?(?: rolls?)?$"),
        ("lance", r"^lance$"),
        ("modifier", r"^([+-]\d+) to (hit|wound)$"),
        ("duellist", r"^duell?ist'?s? edge \d+$"),   # the gambit challenge reads it
    ))
_FNP = re.compile(r"^(?:feel no pain|fnp) ([2-6])\+?$")
#: known words written with a value the ability does not allow: (pattern, what it needs)
_BAD_VALUES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p), why) for p, why in (
        (r"^sustained hits? ", "Sustained Hits X needs X of at least 1, or dice such as D3 or D6"),
        (r"^[+-]?\d+ to (?:hit|wound)$", "+N/-N to hit or wound needs N of at least 1"),
        (r"^anti .+ \d+\+?$", "Anti-KEYWORD X+ needs X from 2 to 6"),
    ))
#: a minus sign before a number (start, space or bracket before it): ``keyword_key`` reads
#: the hyphen as a space, so ``"Sustained Hits -1"`` is checked on the word as written
_NEGATIVE = re.compile(r"(?:^|[\s(])-\s*\d")
#: a run of digits longer than this is never a real value (the map's own bounds are a few
#: digits, ``board/limits.py``) and Python refuses to read one of over 4,300 digits as an int
_MAX_DIGITS = 100
_DIGITS = re.compile(r"\d+")


def keyword_key(word: str) -> str:
    """A word as compared: lowercase, hyphens, underscores, brackets and runs of spaces as one space.

    A leading sign is kept: ``"-1 to hit"`` stays ``"-1 to hit"``.
    """
    text = str(word).strip().lower()
    sign = text[0] if text[:1] in ("+", "-") else ""
    text = text[len(sign):]
    text = text.replace("_", " ").replace("-", " ").replace("(", " ").replace(")", " ")
    return sign + " ".join(text.split()).replace("re roll", "reroll").replace("reroll", "re roll")


@dataclass(frozen=True)
class WeaponAbilities:
    """A weapon's ``rules`` words, parsed (module docstring: what each does).

    ``anti`` holds (keyword as ``keyword_key`` writes it, X); ``reroll_hits``
    and ``reroll_wounds`` are None, ``"failed"`` or ``"ones"`` (Twin-linked
    sets ``reroll_wounds = "failed"``); ``hit_modifier`` / ``wound_modifier``
    are the weapon's own, before the cap.
    """

    lethal_hits: bool = False
    sustained_hits: Amount = 0
    devastating_wounds: bool = False
    anti: tuple[tuple[str, int], ...] = ()
    twin_linked: bool = False
    reroll_hits: str | None = None
    reroll_wounds: str | None = None
    lance: bool = False
    hit_modifier: int = 0
    wound_modifier: int = 0


def _better_reroll(old: str | None, new: str) -> str:
    return "failed" if "failed" in (old, new) else new


def parse_abilities(words: object) -> tuple[WeaponAbilities, list[str]]:
    """(abilities, unknown words) of a weapon's ``rules`` list (strings; other values unknown).

    Case, hyphens, underscores and brackets do not matter: ``"Sustained
    Hits 2"``, ``"sustained-hits-2"`` and ``"Sustained Hits (2)"`` are one
    word.  Never raises: a word it cannot read is returned in the list, and
    so is a known word with a value the ability does not allow
    (``rule_word_problems`` says why), which is then not read at all.
    """
    values, problems = _read(words)
    return WeaponAbilities(**values), [w for w, _ in problems]  # type: ignore[arg-type]


def rule_word_problems(words: object) -> list[tuple[str, str | None]]:
    """The words of a ``rules`` list the attacks do not read, each with why: ``None`` for a
    word the program does not know, else what the ability's value must be
    (``"Sustained Hits -1"``, ``"Sustained Hits 0"``: X at least 1 or dice; ``"+0 to hit"``:
    N at least 1; ``"Anti-Infantry 7+"``: X from 2 to 6)."""
    return _read(words)[1]


def _bad_value(word: str, key: str) -> str | None:
    """What a known word with a value its ability does not allow needs, or None."""
    for pattern, why in _BAD_VALUES:
        if pattern.match(key):
            return why
    return None


def _read(words: object) -> tuple[dict[str, object], list[tuple[str, str | None]]]:
    values: dict[str, object] = {}
    problems: list[tuple[str, str | None]] = []
    items = words if isinstance(words, (list, tuple)) else ([] if words is None else [words])
    for word in items:
        key = keyword_key(word) if isinstance(word, str) else ""
        for name, pattern in _PATTERNS:  # noqa: B007 (name is read after the break)
            m = pattern.match(key)
            if m:
                break
        else:
            problems.append((str(word), _bad_value(str(word), key)))
            continue
        if any(len(d) > _MAX_DIGITS for d in _DIGITS.findall(key)):   # int() would refuse it
            problems.append((str(word), _bad_value(str(word), key)))
            continue
        if name == "lethal":
            values["lethal_hits"] = True
        elif name == "sustained":
            amount = parse_amount(m.group(1).replace(" ", "").upper())
            if _NEGATIVE.search(str(word).strip()) or amount == 0 or \
                    (isinstance(amount, DiceExpr) and amount.n == 0):
                problems.append((str(word), _bad_value(str(word), key)))
                continue
            values["sustained_hits"] = amount
        elif name == "devastating":
            values["devastating_wounds"] = True
        elif name == "anti":
            anti = values.get("anti", ())
            assert isinstance(anti, tuple)      # only this branch sets it, always to a tuple
            values["anti"] = anti + ((m.group(1), int(m.group(2))),)
        elif name == "twin":
            values["twin_linked"] = True
            values["reroll_wounds"] = "failed"
        elif name in ("reroll", "reroll_ones"):
            which = "ones" if name == "reroll_ones" or m.group(2) else "failed"
            field = "reroll_hits" if m.group(1) == "hit" else "reroll_wounds"
            values[field] = _better_reroll(values.get(field), which)  # type: ignore[arg-type]
        elif name == "lance":
            values["lance"] = True
        elif name == "modifier":
            if int(m.group(1)) == 0:
                problems.append((str(word), _bad_value(str(word), key)))
                continue
            field = "hit_modifier" if m.group(2) == "hit" else "wound_modifier"
            values[field] = int(values.get(field, 0)) + int(m.group(1))  # type: ignore[call-overload]
    return values, problems


def capped(modifiers: dict[str, int], cap: int) -> tuple[int, dict[str, int]]:
    """(total, modifiers as logged) with the total held to +/-``cap`` (``ROLL_MODIFIER_CAP``).

    When the sources add to more than the cap a ``"cap"`` entry brings the
    logged modifiers to the total used: ``{"Lance": 1, "+1 to wound": 1,
    "cap": -1}`` is +1.
    """
    mods = {k: v for k, v in modifiers.items() if v}
    raw = sum(mods.values())
    total = max(-cap, min(cap, raw))
    if total != raw:
        mods["cap"] = total - raw
    return total, mods


def roll_needed(value: object, example: int) -> int:
    """A profile's roll needed from 2 to 6, ``5`` or ``"5+"`` (``FNP``, ``Inv``, ``InvSv``).

    Raises
    ------
    ValueError
        For anything else (0, 7, ``"often"``, a boolean), showing ``example``.
    """
    text = str(value).strip().rstrip("+")
    if isinstance(value, bool) or not text.isdigit() or not 2 <= int(text) <= 6:
        raise ValueError(f"must be a roll needed from 2 to 6 such as {example} or "
                         f"\"{example}+\", got {value!r}")
    return int(text)


_FNP_ANY = re.compile(r"^(?:feel no pain|fnp) (\d+)\+?$")


def feel_no_pain(model: Model) -> int | None:
    """The model's Feel No Pain X+ (profile ``FNP``, or keyword ``feel-no-pain-5+``), or None.

    A keyword with X outside 2 to 6 is not read (``defence_keyword_problems`` reports it).

    Raises
    ------
    ValueError
        For a profile ``FNP`` that is not a roll from 2 to 6.
    """
    if "FNP" in model.profile:
        return roll_needed(model.profile["FNP"], 5)
    for k in model.keywords:
        m = _FNP.match(keyword_key(k))
        if m:
            return int(m.group(1))
    return None


def fnp_keyword_problem(word: str) -> str | None:
    """Why a keyword written as Feel No Pain cannot be read (X outside 2 to 6), or None."""
    m = _FNP_ANY.match(keyword_key(word))
    if m and not 2 <= int(m.group(1)) <= 6:
        return (f"{word!r}: Feel No Pain must be a roll needed from 2 to 6, such as "
                f"feel-no-pain-5+")
    return None
