"""Who is a character, who may take part in a challenge, and reading their characteristics.

Both challenge texts speak of "characters" (character-challenge.txt ¶1) or
"eligible" models (gambit-challenge.txt, whose eligibility list is missing:
"To be eligible, a model must meet the following conditions:" and then
nothing).  Named defaults, module-level constants:

- ``CHARACTER_ROLES`` / ``CHARACTER_KEYWORDS``: a character is a model with
  ``role = "commander"`` or ``role = "champion"``, or the ``paragon``
  keyword.  These are the models the gambit text itself sets apart: it opens
  "commanders and champions face each other", and its Paragon note says a
  Paragon "can issue and accept challenges".
- ``GAMBIT_ELIGIBILITY`` (the missing list): a character, whose unit is in
  the chosen combat (the geometry's engagement group at the start of the
  Challenge Sub-phase; the model itself need not be within engagement range,
  as in character-challenge.txt ¶2), that has not already fought a challenge
  this phase, and is not a Vehicle or Automata (models the text's outside
  support excludes from a fight of models).  Statuses do not make a model
  ineligible: the Disgraced text lets a Routed unit hold a Disgraced model,
  so a model under a status can still be nominated.

Characteristics may be written ``3`` or ``"3+"``; ``characteristic`` reads
both.  Coordinates are not used here.
"""

from __future__ import annotations

import re
from typing import Any, overload

from tabletop.board.state import Model, Unit

CHARACTER_ROLES = ("commander", "champion")
CHARACTER_KEYWORDS = ("paragon",)
COMMAND_ROLES = ("commander",)
COMMAND_KEYWORDS = ("command",)
NOT_IN_CHALLENGES = ("vehicle", "automata")
GAMBIT_ELIGIBILITY = (
    "a character (role commander or champion, or the paragon keyword)",
    "its unit is in the chosen combat (engaged at the start of the Challenge Sub-phase)",
    "it has not already fought a challenge this phase",
    "it is not a Vehicle or Automata",
)

DISGRACED = "disgraced"
DISGRACED_HALVES_KEYS = ("WS", "Ld")
# gambit-challenge.txt, Disgraced: the Combat Initiative of a model whose unit is under a status
STATUS_COMBAT_INITIATIVE = 1
# status a character challenge that both survive leaves on each duellist: "challenge:<other id>"
CHALLENGE_STATUS_PREFIX = "challenge:"

_NUM = re.compile(r"^\s*([+-]?\d+)\s*\+?\s*$")


def is_character(model: Model) -> bool:
    """A commander, a champion, or a Paragon (named default ``CHARACTER_ROLES``)."""
    return (model.role in CHARACTER_ROLES) or any(model.has(k) for k in CHARACTER_KEYWORDS)


def is_paragon(model: Model) -> bool:
    return model.has("paragon")


def is_command(model: Model) -> bool:
    """Of the Command sub-type: ``role = "commander"`` or the ``command`` keyword."""
    return model.role in COMMAND_ROLES or any(model.has(k) for k in COMMAND_KEYWORDS)


def can_fight_challenges(model: Model) -> bool:
    """A character that is not a Vehicle or Automata (``NOT_IN_CHALLENGES``)."""
    return is_character(model) and not any(model.has(k) for k in NOT_IN_CHALLENGES)


@overload
def characteristic(profile: dict[str, Any], *names: str, default: int) -> int: ...
@overload
def characteristic(profile: dict[str, Any], *names: str, default: None = None) -> int | None: ...
def characteristic(profile: dict[str, Any], *names: str, default: int | None = None) -> int | None:
    """The first of ``names`` in ``profile`` as an int (``"3+"`` reads 3).

    Raises
    ------
    ValueError
        When the value is neither a number nor ``"N"``/``"N+"``.
    """
    for n in names:
        if n in profile:
            v = profile[n]
            if isinstance(v, bool):
                raise ValueError(f"characteristic {n} must be a number, got {v!r}")
            if isinstance(v, (int, float)):
                return int(v)
            m = _NUM.match(str(v))
            if not m:
                raise ValueError(f"characteristic {n} must be a number, got {v!r}")
            return int(m.group(1))
    return default


def has_status(model: Model, unit: Unit | None = None) -> bool:
    """The model, or (gambit-challenge.txt, Disgraced) any model of its unit, is under a status.

    Challenge bookkeeping (``challenge:<id>``) is not a status.
    """
    def real(st):
        return [s for s in st if not s.startswith(CHALLENGE_STATUS_PREFIX)]

    if real(model.status):
        return True
    if unit is not None:
        if real(unit.status):
            return True
        if any(real(m.status) for m in unit.models):
            return True
    return False


def is_disgraced(model: Model) -> bool:
    """Whether ``model`` carries the Disgraced status (gambit-challenge.txt, Disgraced)."""
    return DISGRACED in model.status


def as_read(model: Model, key: str, value: int) -> int:
    """A Weapon Skill or Leadership ``value`` of ``model`` as every roll and test reads it now.

    gambit-challenge.txt, Disgraced: a Disgraced model halves its Weapon
    Skill and Leadership for the rest of the Assault phase, so ``"WS"`` and
    ``"Ld"`` come back halved (``halved``: rounding up, never below 1) while
    the status lasts; any other ``key``, or a model that is not Disgraced,
    gets ``value`` unchanged.  The one place the halving is decided: the
    challenge's duellists (``duellist.duellist``), the default policy's
    choice of whom to disgrace, and the fight-phase hit roll
    (``fight_phase.profiles.melee_weapon``) all read through it.
    """
    if key in DISGRACED_HALVES_KEYS and is_disgraced(model):
        return halved(value)
    return value


def combat_initiative_fixed(model: Model, unit: Unit | None = None) -> int | None:
    """The Combat Initiative a status sets for ``model``, or None when none does.

    gambit-challenge.txt, Disgraced: the effects that apply to a unit that
    includes a model under a status - among them a Combat Initiative of 1 -
    apply to every model of a Disgraced model's unit, the Disgraced model
    included.  So a model that is under a status itself, or whose ``unit``
    (as it stood, with this model in it) carries a status or holds a model
    under one (``has_status``), has ``STATUS_COMBAT_INITIATIVE`` (1).
    Challenge bookkeeping (``challenge:<id>``) is not a status.
    """
    return STATUS_COMBAT_INITIATIVE if has_status(model, unit) else None


def challenge_partner(model: Model) -> str | None:
    """The model id this model is locked in an ongoing character challenge with, or None."""
    for s in model.status:
        if s.startswith(CHALLENGE_STATUS_PREFIX):
            return s[len(CHALLENGE_STATUS_PREFIX):]
    return None


def halved(value: int) -> int:
    """Half a characteristic, rounding up (named default: characteristics round up, never below 1)."""
    return max(1, (value + 1) // 2)


def on_table(state, model_id: str) -> bool:
    """Whether ``model_id`` is still in ``state`` (not removed, not set aside)."""
    try:
        state.model(model_id)
        return True
    except KeyError:
        return False


def not_a_candidate(state, value, player: str, combat, *, fought=frozenset(),
                    vehicles_barred: bool = False) -> str | None:
    """Why ``value`` cannot be ``player``'s character in ``combat`` - the first reason that
    applies - or None when it can (the caller adds its own last condition).

    In order: it already fought a challenge this phase (``fought``); no such
    model on the table; it belongs to the other player; it is not a character
    (``CHARACTER_ROLES``/``CHARACTER_KEYWORDS``); a Vehicle or Automata (when
    ``vehicles_barred``); its unit is not in this combat.  Used for the exact
    reason of a ``decision_overridden`` event.
    """
    mid = str(value)
    if mid in fought:
        return f"{mid!r} has already fought a challenge this phase"
    if "/" not in mid or not on_table(state, mid):
        return f"{mid!r} is no model on the table"
    m = state.model(mid)
    owner = state.owner(mid)
    if owner != player:
        return f"{mid!r} is {owner}'s model, not one of {player}'s"
    if not is_character(m):
        return f"{mid!r} is not a character (a commander, a champion or a Paragon)"
    if vehicles_barred and any(m.has(k) for k in NOT_IN_CHALLENGES):
        return f"{mid!r} is a Vehicle or Automata: it takes no part in challenges"
    if m.unit_id not in tuple(combat):
        return f"{mid!r}'s unit {m.unit_id} is not in this combat ({', '.join(combat)})"
    return None
