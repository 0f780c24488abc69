"""A model's characteristics and weapons as the gambit challenge reads them.

gambit-challenge.txt Step 3 (Focus) and Step 4 (Strike) use Weapon Skill
(WS), Strength (S), Toughness (T), Save (Sv), Wounds (W), Initiative (I),
Attacks (A) and Leadership (Ld), and "the modifiers of the chosen weapon".
Map profiles may be written the fight-phase way (attacks, strength and a
to-hit target on the weapon) or the challenge way (characteristics on the
model, modifiers on the weapon); named defaults say how both are read:

- ``ATTACKS_FROM`` (``[rules] gambit_attacks``, default ``"profile"``):
  gambit-challenge.txt reads the model's Attacks characteristic (Flurry of
  Blows: "+D3 bonus to its Attacks characteristic"; Guard Up and Withdraw:
  "a single attack, whatever its Attacks characteristic"; Taunt and Bait:
  "Weapon Skill and Attacks characteristics reduced to those of the enemy
  model") and takes from the weapon only "the modifiers of the chosen
  weapon".  So a duellist's attacks are its profile's ``A``; a weapon's
  ``"+1"``/``"-1"`` strings, ``AM`` key and ``"x2"`` modify it and
  ``"User"`` keeps it.  The text is silent on a weapon written the
  fight-phase way, with a plain number (``A = 3``): with ``"profile"`` that
  number is used only when the profile has no ``A``; ``"weapon"`` makes it
  replace the profile's (as the fight phase reads weapons).
- ``STRENGTH_FROM_HITS``: Strength is the hits' (Finishing Blow: "+1 bonus to
  the Strength and Damage characteristics of all hits inflicted"), and hits
  are the chosen weapon's, as their Damage is: a weapon's ``S`` as a plain
  number is the hits' Strength, ``"+1"``/``SM``/``"x2"`` modify the model's
  ``S`` and ``"User"`` (or none) keeps it.
- ``WEAPON_INITIATIVE``: a weapon's ``I`` (or ``IM``) is always a modifier
  to the model's Initiative.
- ``WS_FROM_ROLL_TARGET``: a model with no ``WS`` characteristic takes
  ``7 - target`` from its weapon's ``WS`` to-hit target (``WS = 3``, i.e.
  3+, reads as Weapon Skill 4), the usual conversion between the two.
- ``AP_MODIFIES_SAVE``: AP worsens the armour save by ``|AP|`` (the
  fight-phase convention ``AP = -1``); ``Inv`` is an invulnerable save AP
  does not touch; the better of the two is used.
- ``DISGRACED_HALVES``: a Disgraced model's WS and Ld are halved, rounding up
  (``characters.as_read``, the one place every roll and test reads them).
- Combat Initiative 1 (gambit-challenge.txt, Disgraced): a model under a
  status, or of a unit that carries one or holds a model under one (a
  Disgraced model's unit-mates and the Disgraced model itself), has a Combat
  Initiative of 1 (``characters.combat_initiative_fixed``).  The Focus Roll
  adds "the model's Initiative (with the modifiers of the chosen weapon)",
  which is its Combat Initiative, so that term is 1: the weapon's Initiative
  modifier is part of the value the status replaces and is not added on top
  (``Duellist.combat_initiative``; ``strike.focus_modifiers``).
- Duellist's Edge (X) is read from the model's keywords or the weapon's
  ``rules``/``keywords`` (``"Duellist's Edge (1)"``, ``"duellists-edge-1"``),
  the two added together; Heavy and Light are model keywords.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from tabletop.board.state import Model, Unit
from tabletop.rules.challenges.characters import (
    as_read,
    characteristic,
    combat_initiative_fixed,
    is_command,
    is_disgraced,
    is_paragon,
)

ATTACKS_FROM = "profile"
ATTACKS_FROM_CHOICES = ("profile", "weapon")
STRENGTH_FROM_HITS = "the weapon's S as a plain number, else the model's S with the weapon's modifier"
WEAPON_INITIATIVE = "modifier"
WS_FROM_ROLL_TARGET = 7
AP_MODIFIES_SAVE = True
DISGRACED_HALVES = "round up"
DEFAULT_WEAPON = "Close combat weapon"

_EDGE = re.compile(r"duell?ist'?s?[\s_-]*edge[\s_-]*\(?\s*(\d+)\s*\)?", re.IGNORECASE)


def duellists_edge(words: Any) -> int:
    """The X of every Duellist's Edge (X) among ``words`` (strings), summed."""
    total = 0
    for w in words or ():
        m = _EDGE.search(str(w))
        if m:
            total += int(m.group(1))
    return total


def _mod(value: Any, base: int | None, absolute: bool = True, fallback: int = 0) -> int:
    """A weapon value against the model's (``base``; ``fallback`` when the profile has none):
    "+n"/"-n" adds, "xN" multiplies, "User" keeps; a plain number replaces it when
    ``absolute`` or when the profile has none (``ATTACKS_FROM``), else is ignored."""
    b = fallback if base is None else base
    if value is None:
        return b
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return int(value) if absolute or base is None else b
    s = str(value).strip().lower()
    if s in ("user", "u", "-", ""):
        return b
    if s.startswith(("+", "-")):
        return b + int(s)
    if s.startswith(("x", "×")):
        return b * int(s[1:])
    return int(s) if absolute or base is None else b


@dataclass(frozen=True)
class Weapon:
    """A melee weapon for the challenge: modifiers and values as read (see module doc)."""

    name: str
    initiative_mod: int = 0
    attacks: Any = None          # raw A (number replaces, "+1" adds)
    attacks_mod: int = 0
    strength: Any = None         # raw S
    strength_mod: int = 0
    ap: int = 0                  # <= 0
    damage: int = 1
    edge: int = 0                # Duellist's Edge (X) on the weapon
    ws_target: int | None = None

    @classmethod
    def from_dict(cls, w: dict[str, Any]) -> Weapon:
        words = list(w.get("rules", []) or []) + list(w.get("keywords", []) or [])
        im = w.get("IM", w.get("I", 0))
        ap = characteristic(w, "AP", default=0) or 0
        return cls(
            name=str(w.get("name", DEFAULT_WEAPON)),
            initiative_mod=_mod(im, 0) if not isinstance(im, (int, float)) else int(im),
            attacks=w.get("A"),
            attacks_mod=int(characteristic(w, "AM", default=0) or 0),
            strength=w.get("S"),
            strength_mod=int(characteristic(w, "SM", default=0) or 0),
            ap=-abs(int(ap)),
            damage=int(characteristic(w, "D", default=1) or 1),
            edge=duellists_edge(words),
            ws_target=characteristic(w, "WS"),
        )


@dataclass(frozen=True)
class Duellist:
    """One model in a gambit challenge, as the Focus and Strike Steps read it.

    ``w`` is the base Wounds characteristic; ``wounds_lost`` those already
    lost (before or during the challenge).  ``ws`` and ``ld`` are already
    halved for a Disgraced model.  ``combat_initiative`` is the Combat
    Initiative a status sets (1), or None when ``i`` with the weapon's
    modifier is used.
    """

    model_id: str
    player: str
    ws: int
    s: int | None
    t: int
    sv: int | None
    inv: int | None
    w: int
    i: int
    a: int | None
    ld: int
    heavy: bool
    light: bool
    edge: int
    paragon: bool
    command: bool
    weapons: tuple[Weapon, ...]
    wounds_lost: int = 0
    disgraced: bool = False
    combat_initiative: int | None = None
    attacks_from: str = ATTACKS_FROM

    @property
    def wounds_left(self) -> int:
        return max(0, self.w - self.wounds_lost)

    def weapon(self, name: str) -> Weapon:
        for wp in self.weapons:
            if wp.name.lower() == str(name).lower():
                return wp
        raise KeyError(f"{self.model_id} has no weapon {name!r}")

    def attacks_with(self, wp: Weapon) -> int:
        """The Attacks characteristic with ``wp``'s modifiers (``ATTACKS_FROM``)."""
        return max(0, _mod(wp.attacks, self.a, self.attacks_from == "weapon", 1) + wp.attacks_mod)

    def strength_with(self, wp: Weapon) -> int:
        """The Strength of ``wp``'s hits (``STRENGTH_FROM_HITS``)."""
        return max(1, _mod(wp.strength, self.s, True, self.t) + wp.strength_mod)


def duellist(model: Model, player: str, unit: Unit | None = None,
             attacks_from: str = ATTACKS_FROM) -> Duellist:
    """Read ``model`` for a gambit challenge (module doc: named defaults).

    ``unit``: the model's unit as it stood (with the model in it), read for
    statuses that set the Combat Initiative to 1; None reads the model's own
    statuses only.  ``attacks_from``: ``ATTACKS_FROM`` (``"profile"`` or
    ``"weapon"``).

    Raises
    ------
    ValueError
        When a characteristic the challenge needs (T, W and a Weapon Skill)
        is missing or not a number; the message names the model.
    """
    p = model.profile
    weapons = tuple(Weapon.from_dict(w) for w in model.weapons) or (Weapon(DEFAULT_WEAPON),)
    try:
        ws = characteristic(p, "WS")
        if ws is None:
            target = next((wp.ws_target for wp in weapons if wp.ws_target), None)
            if target is None:
                raise ValueError("no WS characteristic (and no weapon WS to read it from)")
            ws = WS_FROM_ROLL_TARGET - target
        t = characteristic(p, "T")
        w = characteristic(p, "W")
        if t is None or w is None:
            raise ValueError("a challenge needs T and W in the profile")
        disgraced = is_disgraced(model)
        ld = characteristic(p, "Ld", default=7)
        return Duellist(
            model_id=model.id, player=player,
            ws=as_read(model, "WS", ws),
            s=characteristic(p, "S"),
            t=t, sv=characteristic(p, "Sv"), inv=characteristic(p, "Inv", "InvSv"),
            w=w, i=characteristic(p, "I", "Init", default=1) or 0,
            a=characteristic(p, "A"),
            ld=as_read(model, "Ld", ld),
            heavy=model.has("heavy"), light=model.has("light"),
            edge=duellists_edge(model.keywords),
            paragon=is_paragon(model), command=is_command(model),
            weapons=weapons, wounds_lost=model.wounds_lost, disgraced=disgraced,
            combat_initiative=combat_initiative_fixed(model, unit),
            attacks_from=attacks_from,
        )
    except ValueError as exc:
        raise ValueError(f"{model.id}: {exc}") from None
