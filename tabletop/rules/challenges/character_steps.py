"""Character challenges as rows of the rank-and-flank round (``rank_and_flank.steps``).

``CHARACTER_ROUND_STEPS`` are the rows ``rank_and_flank.round.round_steps``
adds to the round's table only when the map's ``[rules] challenges`` is
``"character"``; a map without it has none of them (nothing here is
registered at import time, and no row checks the option).  Each row, by stage:

- ``OPEN`` ``challenge`` (``issue``): a ``disgraced`` status read from the map
  is from an earlier turn and is cleared (``character.end_disgrace``); then
  ``character.challenge_step`` - a challenge is issued "at the start of a
  round of close combat, before any blows are struck but after Impact Hits"
  (¶1; this combat text has no Impact Hits), and refusing or accepting may
  move models, so the round is planned on the table after it.
- ``PLAN`` ``challenge_targets`` (``direct``, after ``who_attacks``): the
  automatic commander duel is replaced (its commanders fight their enemy unit
  as unpaired commanders do); a model that retired in disgrace does not
  attack (¶3); the two duellists make no attack on the troops and no wound of
  a unit's pool reaches them (¶5: they are ``excluded`` and ``protected``).
- the duellists' blows are not a row of plain code but the phase's chance
  rows ``duel`` and ``duel_result`` (``rank_and_flank.phase``, composed with
  this option only): each duellist's wounds inflicted as one chance
  (dice after every other group's), their wounds removed with the round's
  casualties and each side's combat score from the challenge (capped
  overkill, ¶6) a "challenge" item.  Breath Weapons, Impact Hits and Stomps
  are not modelled by this combat text, so nothing of theirs is redirected.
- ``CLOSE`` ``challenge_carry_on`` (``carry_on``): ``character.clear_finished``,
  and the refusal's ``disgraced`` status is cleared (``character.DISGRACE_LASTS``:
  its round and its turn are over; the End phase follows), so ``-o`` never
  writes it.

``character`` and ``character_duel`` (which read the rank-and-flank roll code)
are imported when a row first runs, so either package may be imported first.
"""

from __future__ import annotations

from tabletop.rules.challenges.characters import DISGRACED
from tabletop.rules.rank_and_flank import clauses as C
from tabletop.rules.rank_and_flank.steps import CLOSE, OPEN, PLAN, RoundStep

__all__ = ["CHARACTER_ROUND_STEPS", "carry_on", "direct", "issue"]

RULE_REPLACES_DUEL = "character-challenge.txt (option challenges = \"character\" replaces the commander duel)"


def issue(state, units, dice, decisions, log):
    """Row ``challenge`` (¶1-¶5): issue, accept or refuse; the state after any move.  The
    geometry is the round's (``rank_and_flank.phase.geometry``, kept by table): the row runs
    again from the start for each answer it is given, and the round reads the same table."""
    from tabletop.rules.challenges.character import challenge_step, clear_finished, end_disgrace
    from tabletop.rules.rank_and_flank.phase import geometry
    state = end_disgrace(state, units, log, why="read from the map: refused in an earlier turn, "
                                                "whose End phase is over")
    state = clear_finished(state, units)
    state, _ = challenge_step(state, units, dice, decisions, log, geom=geometry(state))
    return state


def direct(ctx) -> None:
    """Row ``challenge_targets``: who attacks whom once a challenge is on (see module docstring)."""
    from tabletop.rules.challenges.character import RULE_FIGHT, RULE_REFUSE, pair_in
    for a in ctx.attacks:
        if a.kind == "duel":
            a.kind, a.target_model, a.rule = "commander", None, C.COMMANDERS
    if ctx.duels:
        ctx.notes.append("challenges are on: no automatic commander duel "
                         f"({', '.join(' v '.join(d) for d in ctx.duels)} fight the enemy unit)")
        ctx.duels = []
    for u in ctx.units:
        for m in ctx.state.unit(u).models:
            if DISGRACED in m.status:
                ctx.excluded.add(m.id)
                ctx.notes.append(f"{m.id} retired in disgrace: it does not attack this round ({RULE_REFUSE})")
    pair = pair_in(ctx.state, ctx.units)
    if pair is None:
        return
    ctx.excluded |= set(pair)
    ctx.protected |= set(pair)
    ctx.extra["challenge"] = pair
    ctx.notes.append(f"{pair[0]} and {pair[1]} fight their challenge: they attack only each other "
                     f"and nobody else attacks them ({RULE_FIGHT})")


def carry_on(state, units, log):
    """Row ``challenge_carry_on`` (¶7): a challenge both survived goes on; one that ended is
    cleared; the refusal's disgrace ends with its round."""
    from tabletop.rules.challenges.character import clear_finished, end_disgrace
    state = clear_finished(state, units, log)
    return end_disgrace(state, units, log, why="the round of the refusal and its turn are over "
                                               "(the End phase follows the combat phase)")


RULE_ISSUE = "character-challenge.txt ¶1-¶5"
RULE_CARRY_ON = "character-challenge.txt ¶7"

CHARACTER_ROUND_STEPS: tuple[RoundStep, ...] = (
    RoundStep("challenge", OPEN, "Challenge issued, accepted or refused", RULE_ISSUE, issue),
    RoundStep("challenge_targets", PLAN, "Duellists attack only each other", RULE_REPLACES_DUEL,
              direct),
    RoundStep("challenge_carry_on", CLOSE, "Challenge goes on or ends", RULE_CARRY_ON, carry_on),
)
"""The character challenge's rows of the round (``challenges = "character"`` only)."""
