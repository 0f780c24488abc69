"""The nine basic gambits as data, and the Face-Off Step's choosing rules.

gambit-challenge.txt, Step 2 (Face-Off) and "Basic gambits":

- Round 1: the player controlling the Challenger chooses first; later rounds:
  the player with the Challenge Advantage (``first_chooser``).
- A chosen gambit's bonuses or limitations apply before the opponent
  chooses; no model may choose a gambit the other chose in the same Face-Off
  Step (a prolonged challenge starts afresh each round).
- Feint and Riposte: only for the first chooser; it names another gambit the
  opponent then cannot choose in this Face-Off Step.
- When two gambits' effects conflict, the one chosen by the player with the
  Challenge Advantage takes precedence, else the Active Player's
  (``precedence``).  ``PRECEDENCE_WHEN``: who has precedence is settled in
  the Face-Off Step, when the gambits are chosen - each gambit's effects
  apply as it is chosen, before the opponent chooses - so it is the player
  holding the Challenge Advantage at that Face-Off, not the winner of the
  Focus Roll that follows.  In the first round nobody holds it yet (the
  first Focus Roll comes after the gambits), so the Active Player's gambit
  takes precedence whoever chose first and whoever then wins the Focus Roll
  (issue 8 item 8); in a prolonged challenge it is the player who holds the
  advantage as the round's Face-Off starts (the last Focus Roll's winner, or
  Test the Foe's player).  ``FaceOff.precedence`` carries it to the Strike
  Step; the odds (``odds.round_outcomes``) read the same.  Among the nine basic gambits the only interaction is
  Taunt and Bait reading the enemy's Weapon Skill and Attacks, which the
  enemy's own gambit may change (Guard Up, Flurry of Blows, Grandstand,
  Withdraw).  Named default ``TAUNT_READS``: the gambit with precedence is
  applied last, so a Taunt and Bait with precedence matches the enemy's
  characteristics after its gambit; without precedence it reads them before
  the enemy's gambit, which then applies on top.

Effects, as the text writes them (``GAMBITS[name].text``), are fields of
``Gambit`` read by the Focus and Strike code (``strike.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

RULE_FACE_OFF = "gambit-challenge.txt Step 2 (Face-Off)"
RULE_GAMBITS = "gambit-challenge.txt Basic gambits"

TAUNT_READS = "precedence applied last"
PRECEDENCE_WHEN = "at the Face-Off, when the gambits are chosen"


@dataclass(frozen=True)
class Gambit:
    """One gambit's effects.

    focus_dice, focus_keep : dice rolled in the Focus Step and which to keep
        ("all" for one die; "highest" when the lowest is discarded; "lowest"
        when the highest is discarded).
    """

    name: str
    text: str
    focus_dice: int = 1
    focus_keep: str = "all"
    no_bonus: bool = False               # Test the Foe: no bonus in the Focus or Strike Steps
    advantage_next: bool = False         # Test the Foe
    ws_bonus: int = 0                    # Guard Up
    single_attack: bool = False          # Guard Up, Withdraw
    focus_per_enemy_miss: int = 0        # Guard Up
    attacks_d3: bool = False             # Flurry of Blows
    damage_set: int | None = None        # Flurry of Blows (cannot be modified)
    taunt: bool = False                  # Taunt and Bait
    points_if_win: int = 0               # Taunt and Bait, per time chosen
    no_outside_support: bool = False     # Grandstand
    attacks_from_support: bool = False   # Grandstand
    first_chooser_only: bool = False     # Feint and Riposte
    bans: bool = False                   # Feint and Riposte
    may_withdraw: bool = False           # Withdraw
    strength_bonus: int = 0              # Finishing Blow
    damage_bonus: int = 0                # Finishing Blow


SEIZE = "Seize the Initiative"
FLURRY = "Flurry of Blows"
TEST = "Test the Foe"
GUARD = "Guard Up"
TAUNT = "Taunt and Bait"
GRANDSTAND = "Grandstand"
FEINT = "Feint and Riposte"
WITHDRAW = "Withdraw"
FINISHING = "Finishing Blow"

GAMBITS: dict[str, Gambit] = {g.name: g for g in (
    Gambit(SEIZE, "The player rolls one extra dice in the Focus Step and discards the lowest result.",
           focus_dice=2, focus_keep="highest"),
    Gambit(FLURRY, "The model gains a +D3 bonus to its Attacks characteristic, but hits inflicted "
           "by these attacks have their Damage characteristic set to \"1\", which cannot be "
           "modified by any special rule.", attacks_d3=True, damage_set=1),
    Gambit(TEST, "The model this choice applies to gains no bonus in the Focus or Strike Steps, but "
           "if it is not removed as a casualty, it automatically gains the Challenge Advantage at "
           "the start of the next Face-Off Step.", no_bonus=True, advantage_next=True),
    Gambit(GUARD, "The model gains a +1 bonus to its Weapon Skill in the Strike Step, but may only "
           "make a single attack, whatever its Attacks characteristic. In the Strike Step, each "
           "missed attack by the enemy model gives the player who chose this gambit a +1 bonus to "
           "their next Focus Roll.", ws_bonus=1, single_attack=True, focus_per_enemy_miss=1),
    Gambit(TAUNT, "The model has its Weapon Skill and Attacks characteristics reduced to those of "
           "the enemy model (or, if they were already equal, reduced by -1). For each time a player "
           "has chosen this gambit during the current challenge, they gain +1 combat resolution "
           "point if they win the challenge.", taunt=True, points_if_win=1),
    Gambit(GRANDSTAND, "The player must roll one extra dice in the Focus Step and discard the "
           "highest result; the model gains no outside support bonus. In exchange, it gains a bonus "
           "to its attacks equal to the outside support bonus it would normally have been entitled "
           "to in the Focus Step.", focus_dice=2, focus_keep="lowest", no_outside_support=True,
           attacks_from_support=True),
    Gambit(FEINT, "Can only be chosen by the player choosing the first gambit. That player may name "
           "any other gambit (including a faction-specific gambit they do not have access to): the "
           "opposing player cannot choose that gambit in this Face-Off Step.",
           first_chooser_only=True, bans=True),
    Gambit(WITHDRAW, "The model may only make a single attack, whatever its Attacks characteristic. "
           "In the Glory Step, a player who chose this gambit may end the challenge and score no "
           "combat resolution points, provided the model under their control was not removed as a "
           "casualty in the Strike Step.", single_attack=True, may_withdraw=True),
    Gambit(FINISHING, "The player must roll one extra dice and discard the highest result before "
           "totalling. In exchange, the model gains a +1 bonus to the Strength and Damage "
           "characteristics of all hits inflicted in the Strike Step.",
           focus_dice=2, focus_keep="lowest", strength_bonus=1, damage_bonus=1),
)}
GAMBIT_NAMES: tuple[str, ...] = tuple(GAMBITS)


def gambit(name: str) -> Gambit:
    """The gambit named as the text writes it (case-insensitive).

    Raises
    ------
    KeyError
        For a name that is not one of the nine basic gambits.
    """
    g = GAMBITS.get(name)
    if g is not None:
        return g
    for n, g in GAMBITS.items():
        if n.lower() == str(name).strip().lower():
            return g
    raise KeyError(f"no gambit {name!r}: use one of {', '.join(GAMBIT_NAMES)}")


def first_chooser(round_no: int, challenger_player: str, advantage_player: str | None) -> str:
    """Who chooses the first gambit: the Challenger's player in round 1, then the advantage holder."""
    if round_no <= 1 or advantage_player is None:
        return challenger_player
    return advantage_player


def precedence(advantage_player: str | None, active_player: str) -> str:
    """Whose gambit wins a conflict: the Challenge Advantage holder, else the Active Player."""
    return advantage_player if advantage_player is not None else active_player


def allowed(first: bool, taken: Sequence[str], banned: Sequence[str]) -> list[str]:
    """Gambits a player may choose now (names, in the text's order).

    ``first``: this player chooses the first gambit of the Face-Off Step;
    ``taken``: gambits already chosen in this Face-Off Step; ``banned``: named
    by the opponent's Feint and Riposte.
    """
    return [n for n in GAMBIT_NAMES if why_not(n, first, taken, banned) is None]


def why_not(name: Any, first: bool, taken: Sequence[str], banned: Sequence[str]) -> str | None:
    """Why ``name`` cannot be chosen now, or None when it can."""
    try:
        g = gambit(name)
    except KeyError as exc:
        return str(exc.args[0])
    if g.name in taken:
        return f"{g.name} was already chosen in this Face-Off Step"
    if g.name in banned:
        return f"{g.name} was named by Feint and Riposte"
    if g.first_chooser_only and not first:
        return f"{g.name} can only be chosen by the player choosing the first gambit"
    return None


@dataclass
class FaceOff:
    """The gambits of one Face-Off Step: ``chosen`` {player: name}, ``order``, ``banned``."""

    round_no: int
    order: list[str]
    chosen: dict[str, str]
    banned: list[str]
    precedence: str


def face_off(round_no: int, players: tuple[str, str], challenger_player: str,
             advantage_player: str | None, active_player: str, decisions, log,
             default_for: Callable[[str, list[str], dict[str, str], list[str]], str] | None = None,
             default_ban: Callable[[str, list[str]], str] | None = None) -> FaceOff:
    """Run a Face-Off Step: each player chooses a gambit through ``decisions``.

    Emits ``gambit_chosen`` {player, gambit, first} per choice (and, for
    Feint and Riposte, ``gambit_banned`` {player, gambit}).  A scripted gambit
    the rules forbid is overridden (``decision_overridden`` says why).
    ``default_for(player, options, chosen, banned)`` is the default policy.
    """
    first = first_chooser(round_no, challenger_player, advantage_player)
    second = players[0] if players[1] == first else players[1]
    chosen: dict[str, str] = {}
    banned: list[str] = []
    for player, is_first in ((first, True), (second, False)):
        taken = list(chosen.values())
        options = allowed(is_first, taken, banned)
        default = default_for(player, options, dict(chosen), list(banned)) if default_for else options[0]
        value = decisions.choose(
            player, "gambit", options, default=default, rule=RULE_FACE_OFF,
            context={"round": round_no, "first": is_first, "chosen": dict(chosen)},
            why_not=lambda v, f=is_first, t=taken, b=list(banned): why_not(v, f, t, b) or "not allowed")
        name = gambit(value).name
        chosen[player] = name
        log.emit("gambit_chosen", RULE_FACE_OFF, player=player, gambit=name, first=is_first,
                 round=round_no)
        if gambit(name).bans:
            names = [n for n in GAMBIT_NAMES if n != name]
            dflt = default_ban(player, names) if default_ban else names[0]
            ban = decisions.choose(player, "feint", names, default=dflt, rule=RULE_GAMBITS,
                                   why_not=lambda v: f"{v!r} is not another gambit")
            banned.append(gambit(ban).name)
            log.emit("gambit_banned", RULE_GAMBITS, player=player, gambit=gambit(ban).name)
    return FaceOff(round_no, [first, second], chosen, banned,
                   precedence(advantage_player, active_player))
