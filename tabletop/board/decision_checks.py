"""Load-time checks of a map's scripted ``[[decisions]]`` values (docs/map-format.md).

A value that can never answer its question, whatever happens in the phase, is a map
error (one line ``file: decisions[i].value: ...``, exit 2), not a choice the rules
override later: an id that is on no unit, model or objective of the map, a number or
list where an id belongs, a fight type other than ``normal`` / ``overrun``
(fight-phase.txt 12.05, 12.06), ``true`` / ``false`` choices written as anything else,
and a unit or model of the wrong player (a player selects their own units to pile in,
consolidate and fight, 12.03, 12.04, 12.08, and attacks, piles in toward and nominates
the enemy's).  A value of the right shape that the rules refuse when the question comes
(the unit is not eligible then), and an entry without ``value``, is still overridden by the
default policy, with the rules' reason (``rules/engine/scripted.py``).

Ids compare trimmed and case-blind, as the scripted answers are matched
(``engine.scripted.same``).
"""

from __future__ import annotations

from typing import Any

from tabletop.board.state import Battlefield

__all__ = ["FIGHT_TYPE_VALUES", "decision_problems"]

#: the fight types a ``fight_type`` decision may name (fight-phase.txt 12.05 normal, 12.06
#: overrun); the same words as ``rules.fight_phase.eligibility.NORMAL`` / ``OVERRUN``
FIGHT_TYPE_VALUES = ("normal", "overrun")

# choice -> (what the value names, whose, the one word allowed besides an id)
_OWN_UNIT = {"pile_in": "none", "consolidate": "none", "fight": None}
_ENEMY_UNIT = {"attack_target": None, "commander_target": None}
_OWN_MODEL = {"issue_challenge": "none", "accept_challenge": "refuse"}
_ENEMY_MODEL = {"disgrace": None}
_TARGETS = {"pile_in_targets": False, "consolidation_targets": True}   # True: objectives too
_BOOLS = ("prolong", "withdraw")
_NAMES = ("gambit", "feint", "weapon")


def _shown(v: Any) -> str:
    """A value as the map file writes it: ``true`` / ``false`` for a boolean (re-audit 9:
    "not True" was Python's spelling), else its repr."""
    return ("true" if v else "false") if isinstance(v, bool) else repr(v)


def _key(v: str) -> str:
    return v.strip().lower()


def decision_problems(path: str, state: Battlefield) -> list[str]:
    """One line per ``[[decisions]]`` entry whose value can never answer its choice.

    ``state`` is the map as loaded (its ``decisions``, units, models, objectives,
    players); lines read ``path: decisions[i].value: what is wrong``.  Choices not
    listed here (unknown ones are refused by ``mapfile``) are not checked.
    """
    units = {_key(u.id): u for u in state.units}
    models = {_key(m.id): u for u in state.units for m in u.models}
    objectives = {_key(o.id) for o in state.objectives}
    players = {p.id for p in state.players}
    problems: list[str] = []
    for i, d in enumerate(state.decisions):
        if d.player not in players or d.value is None:
            continue    # an unknown player: mapfile._cross_checks; no value: the rules say why
        why = _problem(d.player, d.choice, d.value, units, models, objectives)
        if why:
            problems.append(f"{path}: decisions[{i}].value: {why}")
    return problems


def _problem(player: str, choice: str, value: Any, units: dict[str, Any], models: dict[str, Any],
             objectives: set[str]) -> str | None:
    if choice == "fight_type":
        if not isinstance(value, str) or _key(value) not in FIGHT_TYPE_VALUES:
            return (f"{_shown(value)} is not a fight type (fight_type is one of "
                    f"{', '.join(FIGHT_TYPE_VALUES)}: fight-phase.txt 12.05, 12.06)")
        return None
    if choice in _BOOLS:
        return None if isinstance(value, bool) else f"{choice} takes true or false, not {_shown(value)}"
    if choice in _NAMES:
        return None if isinstance(value, str) else f"{choice} takes a name (a string), not {_shown(value)}"
    for table, kind, own in ((_OWN_UNIT, "unit", True), (_ENEMY_UNIT, "unit", False),
                             (_OWN_MODEL, "model", True), (_ENEMY_MODEL, "model", False)):
        if choice in table:
            return _id_problem(player, choice, value, table[choice], kind, own,
                               units if kind == "unit" else models)
    if choice in _TARGETS:
        items = value if isinstance(value, list) else [value]
        if not items:
            return f"{choice} takes a unit id or a list of unit ids, not an empty list"
        for v in items:
            if isinstance(v, str) and _TARGETS[choice] and _key(v) in objectives:
                continue
            why = _id_problem(player, choice, v, None, "unit", False, units)
            if why:
                return why
    return None


def _id_problem(player: str, choice: str, value: Any, word: str | None, kind: str, own: bool,
                found: dict[str, Any]) -> str | None:
    """Why ``value`` is not the id of a ``kind`` (unit or model) of ``player`` (``own``) or
    of the enemy, nor the one allowed ``word``; None when it is."""
    takes = f"a {kind} id" + (f" or {word!r}" if word else "")
    if not isinstance(value, str):
        return f"{choice} takes {takes}, not {_shown(value)}"
    if word and _key(value) == word:
        return None
    unit = found.get(_key(value))
    if unit is None:
        return f"no {kind} {value!r} on the map ({choice} takes {takes})"
    if own and unit.player != player:
        return f"{value!r} is {unit.player}'s, not {player}'s ({choice} names the player's own {kind})"
    if not own and unit.player == player:
        return f"{value!r} is {player}'s own {kind} ({choice} names an enemy {kind})"
    return None
