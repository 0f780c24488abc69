"""Character challenges inside a rank-and-flank combat round (character-challenge.txt).

Map option ``challenges = "character"`` of ``rank-and-flank``.  The round's
row (``character_steps``), run per engagement after Impact Hits and before blows
(``challenge_step``), and what the blows need from it (``CharacterChallenge``):

- ¶1 one challenge per combat; the player whose turn it is may issue first,
  then the other; the issuer nominates one of its characters in the fight;
  none can be issued if it has none, or the enemy has none to answer it.
- ¶2 any enemy character whose own unit is in base contact with the
  challenger's unit may accept (from the geometry: some model of the one
  unit in base contact with some model of the other).
- ¶3 if none accepts, the challenger nominates one of those who could have
  accepted; it retires in disgrace: it is moved out of base contact with the
  enemy (a model of its unit not in contact trades places with it -
  ``geometry.placement.swap_out_of_contact``), cannot attack this round and
  lends no Leadership (Discipline) this turn (``lends_discipline``); the
  challenger fights normally.  How long that lasts: named default
  ``DISGRACE_LASTS``.  A ``tabletop fight`` run is one turn's combat phase:
  one round of every engagement.  So "that round" and "that turn" are this
  run: the status ``disgraced`` is written at the refusal, read by this
  round's blows (``character_steps.direct``) and break test
  (``rank_and_flank.breaks.discipline_of``), and cleared once the round of
  its engagement is over (``end_disgrace``, event ``status_removed``: the
  turn's End phase follows the combat phase).  A map written by ``-o``
  therefore never marks "refused this turn"; a ``disgraced`` status read from
  a map (hand-written, or by an older version) is from an earlier turn and
  is cleared, with the same event, before the round's challenge is issued.
- ¶4 a character that cannot be moved out of base contact cannot refuse:
  named default ``NOMINEE_WHO_CANNOT_REFUSE``: when every character who
  could accept is stuck in contact, "refuse" is not an option (a scripted
  refusal is overridden with the reason); when the challenger nominates one
  that is stuck, that one fights the challenge instead.
- ¶5 an accepted challenge moves both into base contact where the table
  allows (``swap_into_contact``), else they are treated as in contact; all
  their attacks go at each other (not Breath Weapons, Impact Hits, Stomps:
  ``directs_at_duel``) and nobody else may attack them (``may_attack``).
- ¶6 overkill: ``character_duel.duel_score``.
- ¶7 both survive: the challenge goes on next round (each duellist carries
  the status ``challenge:<other id>`` from acceptance, saved in the map;
  ``clear_finished`` drops it once one is gone) and no new one can be
  issued in that combat.

Rows of the rank-and-flank round in ``character_steps`` (before the round is
planned: ``challenge_step``; before blows: who attacks whom; after the round:
``clear_finished``); the duellists' blows are the phase's chance rows
(``rank_and_flank.phase``: one chance per duellist, then ``result_fields`` for
the ``challenge_result`` event); ``resolve_blows`` rolls both at once.

When the option is on this replaces the automatic commander duel of
rank-and-flank-combat.txt ("When both sides of a fight have a commander,
the commanders duel"): ``replaces_commander_duel(state)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from tabletop.board.state import Battlefield
from tabletop.geometry.placement import swap_into_contact, swap_out_of_contact
from tabletop.rules.challenges.character_duel import (
    DUEL_EXEMPT,
    RULE_OVERKILL,
    DuelResult,
    duel,
    duel_odds,
    fighters,
)
from tabletop.rules.challenges.characters import (
    CHALLENGE_STATUS_PREFIX,
    DISGRACED,
    challenge_partner,
    characteristic,
    is_character,
    not_a_candidate,
    on_table,
)
from tabletop.rules.challenges.tables import geometry

RULE_ISSUE = "character-challenge.txt ¶1"
RULE_ACCEPT = "character-challenge.txt ¶2"
RULE_REFUSE = "character-challenge.txt ¶3"
RULE_CANNOT_REFUSE = "character-challenge.txt ¶4"
RULE_FIGHT = "character-challenge.txt ¶5"
RULE_CONTINUE = "character-challenge.txt ¶7"

RULE_DISGRACE_ENDS = "character-challenge.txt ¶3 (can't attack that round; no Leadership that turn)"

NOMINEE_WHO_CANNOT_REFUSE = "fights the challenge instead"
DISGRACE_LASTS = ("the fight run that refused: the round of the refusal and that turn's break tests; "
                  "cleared when its engagement's round is over (the End phase follows)")
REFUSE_COST = Fraction(1)
ISSUE_POLICY = "issue with the character whose worst expected score difference against the acceptors is >= 0"
ACCEPT_POLICY = "accept with the best acceptor unless it expects to lose by more than REFUSE_COST"
DISGRACE_POLICY = "a nominee that can be moved out of contact, highest Discipline first"


@dataclass
class CharacterChallenge:
    """A combat's challenge this round (or none: ``challenger is None``)."""

    combat: tuple[str, ...]
    challenger: str | None = None
    challenged: str | None = None
    issuer: str | None = None
    disgraced: str | None = None
    swapped_with: str | None = None
    treated_in_contact: bool = False
    continuing: bool = False
    forced: bool = False
    moves: dict[str, str] = field(default_factory=dict)

    @property
    def duellists(self) -> tuple[str, ...]:
        return tuple(m for m in (self.challenger, self.challenged) if m) if self.challenged else ()

    def no_attack(self) -> set[str]:
        """Models that cannot attack this round (the disgraced)."""
        return {self.disgraced} if self.disgraced else set()

    def opponent(self, model_id: str) -> str | None:
        if not self.challenged:
            return None
        if model_id == self.challenger:
            return self.challenged
        if model_id == self.challenged:
            return self.challenger
        return None

    def directs_at_duel(self, model_id: str, attack: str = "blows") -> bool:
        """True when this attack of ``model_id`` must go at its opponent in the challenge.

        Breath Weapons, Impact Hits and Stomps still hit the unit (``DUEL_EXEMPT``).
        """
        return self.opponent(model_id) is not None and attack.lower() not in DUEL_EXEMPT

    def may_attack(self, attacker: str, target: str, attack: str = "blows") -> bool:
        """Whether ``attacker`` may direct ``attack`` at ``target`` this round (¶3, ¶5)."""
        if attacker in self.no_attack():
            return False
        if self.directs_at_duel(attacker, attack):
            return target == self.opponent(attacker)
        return target not in self.duellists


def replaces_commander_duel(state: Battlefield) -> bool:
    """With ``challenges = "character"`` the automatic commander duel is replaced by challenges."""
    return state.rules.challenges == "character"


def lends_discipline(model) -> bool:
    """A character that retired in disgrace lends no Leadership (Discipline) this turn (¶3)."""
    return DISGRACED not in model.status


def end_disgrace(state: Battlefield, units, log=None, why: str = "its round is over") -> Battlefield:
    """Clear the ``disgraced`` status of every model of ``units`` (named default ``DISGRACE_LASTS``).

    Called when an engagement's round is over (the refusal's round and turn
    end: the End phase follows the combat phase) and, for a status read from
    a map, before the round's challenge.  Emits ``status_removed`` {model,
    status, reason} per model, rule ``RULE_DISGRACE_ENDS``.
    """
    changed = []
    for uid in units:
        if not state.has_unit(uid):
            continue
        for m in state.unit(uid).models:
            if DISGRACED in m.status:
                changed.append(replace(m, status=tuple(s for s in m.status if s != DISGRACED),
                                       written=m.written | {"status"}))
                if log is not None:
                    log.emit("status_removed", RULE_DISGRACE_ENDS, model=m.id, status=DISGRACED, reason=why)
    return state.with_models(changed) if changed else state


# ------------------------------------------------------------------ from the table
def units_touch(geom, unit_a: str, unit_b: str) -> bool:
    """Some model of ``unit_a`` is in base contact with some model of ``unit_b``."""
    for m in geom.unit_models(unit_a):
        for c in geom.contacts_of(m):
            if c.rsplit("/", 1)[0] == unit_b:
                return True
    return False


def characters_in(state: Battlefield, combat, player: str) -> list[str]:
    return [m.id for uid in combat if state.has_unit(uid) and state.unit(uid).player == player
            for m in state.unit(uid).models if is_character(m)]


def may_accept(state: Battlefield, geom, combat, challenger: str) -> list[str]:
    """Enemy characters in the combat whose own unit is in base contact with the challenger's unit (¶2)."""
    cu = challenger.rsplit("/", 1)[0]
    other = state.other_player(state.owner(challenger))
    return [m for m in characters_in(state, combat, other) if units_touch(geom, m.rsplit("/", 1)[0], cu)]


def can_refuse(state: Battlefield, geom, model_id: str) -> bool:
    """Whether the character can be moved out of base contact with the enemy (¶4)."""
    if not geom.contacts_of(model_id):
        return True
    return swap_out_of_contact(state, model_id, geom) is not None


# ------------------------------------------------------------------ the challenge row
def _value(state, a: str, b: str) -> Fraction:
    """Expected score difference of one round for ``a``'s player (exact, ``character_duel.duel_odds``)."""
    pa, pb = state.owner(a), state.owner(b)
    o = duel_odds(*fighters(state, a, b))
    return o["expected_score"][pa] - o["expected_score"][pb]


def ongoing(state: Battlefield, combat) -> tuple[str, str] | None:
    """A challenge carried over from last round in this combat (¶7): (model, model) or None."""
    for uid in combat:
        if not state.has_unit(uid):
            continue
        for m in state.unit(uid).models:
            other = challenge_partner(m)
            if other is not None:
                try:
                    state.model(other)
                except KeyError:
                    continue
                return tuple(sorted((m.id, other)))  # type: ignore[return-value]
    return None


def challenge_step(state: Battlefield, combat, dice, decisions, log,
                   geom=None) -> tuple[Battlefield, CharacterChallenge]:
    """Issue, accept or refuse a challenge in one combat (after Impact Hits, before blows).

    Parameters
    ----------
    combat : unit ids of one engagement (the geometry's ``engagements`` group).

    Returns the state after any move (refusal swap, into-contact swaps) and
    the ``CharacterChallenge`` the blows must respect.  Emits
    ``challenge_issued`` {player, challenger}, ``challenge_accepted``
    {challenged, ...}, ``challenge_refused`` {disgraced, swapped_with},
    ``challenge_continues``.  Does nothing unless ``challenges = "character"``.
    """
    combat = tuple(combat)
    ch = CharacterChallenge(combat)
    if state.rules.challenges != "character":
        return state, ch
    geom = geom or geometry(state)
    going = ongoing(state, combat)
    if going is not None:
        a, b = going
        pa = state.owner(a)
        ch.challenger, ch.challenged, ch.issuer, ch.continuing = a, b, pa, True
        log.emit("challenge_continues", RULE_CONTINUE, models=[a, b])
        state, ch = _into_contact(state, geom, ch, log)
        return state, ch
    active = state.active_player
    for who in (active, state.other_player(active)):
        mine = [c for c in characters_in(state, combat, who) if may_accept(state, geom, combat, c)]
        if not mine:
            continue
        vals = {c: min(_value(state, c, a) for a in may_accept(state, geom, combat, c)) for c in mine}
        best = max(mine, key=lambda c: vals[c])
        default = best if vals[best] >= 0 else "none"
        v = decisions.choose(who, "issue_challenge", mine + ["none"], default=default, rule=RULE_ISSUE,
                             context={"combat": list(combat)},
                             why_not=lambda x, w=who: _why_not_issuer(state, combat, w, x))
        if v != "none":
            ch.challenger, ch.issuer = v, who
            break
    if ch.challenger is None:
        return state, ch
    log.emit("challenge_issued", RULE_ISSUE, player=ch.issuer, challenger=ch.challenger, combat=list(combat))
    assert ch.issuer is not None   # set with the challenger
    other = state.other_player(ch.issuer)
    acceptors = may_accept(state, geom, combat, ch.challenger)
    refusable = [m for m in acceptors if can_refuse(state, geom, m)]
    options = acceptors + (["refuse"] if refusable else [])
    vals = {a: _value(state, ch.challenger, a) for a in acceptors}
    best = min(acceptors, key=lambda a: vals[a])
    default = best if (vals[best] <= REFUSE_COST or not refusable) else "refuse"

    def why(x: Any) -> str:
        if str(x).lower() == "refuse":
            return ("cannot refuse: no character who could accept can be moved out of base contact "
                    f"(¶4: {', '.join(acceptors)})")
        return (not_a_candidate(state, x, other, combat)
                or f"{x!r} cannot accept: its unit is not in base contact with {ch.challenger}'s unit (¶2)")

    ans = decisions.choose(other, "accept_challenge", options, default=default, rule=RULE_ACCEPT, why_not=why)
    if ans == "refuse":
        dflt = max(acceptors, key=lambda m: (m in refusable,
                                             characteristic(state.model(m).profile, "Discipline", "Ld",
                                                            default=0) or 0))
        nominee = decisions.choose(ch.issuer, "disgrace", acceptors, default=dflt, rule=RULE_REFUSE,
                                   why_not=lambda x: "it could not have accepted: " + (
                                       not_a_candidate(state, x, other, combat)
                                       or f"{x!r}'s unit is not in base contact with {ch.challenger}'s unit (¶2)"))
        if nominee not in refusable:
            log.emit("cannot_refuse", RULE_CANNOT_REFUSE, model=nominee,
                     reason="no model of its unit out of base contact can take its place: it must fight")
            ch.forced = True
            ans = nominee
        else:
            swap = swap_out_of_contact(state, nominee, geom) if geom.contacts_of(nominee) else None
            if swap is not None:
                ch.swapped_with, state = swap
            m = state.model(nominee)
            state = state.with_models([replace(m, status=m.status + (DISGRACED,), written=m.written | {"status"})])
            ch.disgraced = nominee
            log.emit("challenge_refused", RULE_REFUSE, player=other, disgraced=nominee,
                     swapped_with=ch.swapped_with, at=list(state.model(nominee).at))
            log.step("Challenge refused: retires in disgrace", RULE_REFUSE, state)
            return state, ch
    ch.challenged = ans
    log.emit("challenge_accepted", RULE_ACCEPT, player=other, challenged=ans, forced=ch.forced)
    state, ch = _into_contact(state, geom, ch, log)
    return state, ch


def _why_not_issuer(state: Battlefield, combat, player: str, value: Any) -> str:
    """The exact reason ``value`` cannot issue ``player``'s challenge in ``combat`` (¶1)."""
    return (not_a_candidate(state, value, player, combat)
            or f"{value!r} cannot issue a challenge: no enemy character's unit is in base contact "
               f"with its unit, so none could answer it (¶1-¶2)")


def _into_contact(state: Battlefield, geom, ch: CharacterChallenge, log) -> tuple[Battlefield, CharacterChallenge]:
    start = {m: list(state.model(m).at) for m in ch.duellists}
    assert ch.challenger is not None and ch.challenged is not None   # an accepted challenge
    got = swap_into_contact(state, ch.challenger, ch.challenged, geom)
    if got is None:
        ch.treated_in_contact = True
        log.emit("challenge_contact", RULE_FIGHT, models=list(ch.duellists), moved={},
                 treated_in_contact=True, reason="the table does not allow base contact: treated as in contact",
                 start=start)
    else:
        ch.moves, state = got
        log.emit("challenge_contact", RULE_FIGHT, models=list(ch.duellists), moved=dict(ch.moves),
                 treated_in_contact=False, start=start)
    mark = []
    for m in ch.duellists:
        mm = state.model(m)
        opp = ch.opponent(m)
        assert opp is not None   # m is one of the two duellists
        if challenge_partner(mm) != opp:
            st = tuple(x for x in mm.status if not x.startswith(CHALLENGE_STATUS_PREFIX))
            mark.append(replace(mm, status=st + (CHALLENGE_STATUS_PREFIX + opp,),
                                written=mm.written | {"status"}))
    state = state.with_models(mark)
    log.step("Challenge accepted: the characters face each other", RULE_FIGHT, state)
    return state, ch


def resolve_blows(state: Battlefield, pair: tuple[str, str], dice, log,
                  first_round: bool = False, pair_fighters: tuple | None = None) -> DuelResult:
    """The two characters' blows at each other this round (¶5-¶6).

    ``pair_fighters``: ``fighters(state, *pair, first_round)`` when the caller has
    them already (the odds resolve one planned round many times).

    Emits the ``roll`` events (the rank-and-flank roll code), ``challenge_result``
    {winner, removed, points, overkill, scores, inflicted}: ``points`` is the
    winner's combat score from the challenge, ``overkill`` the counted part
    beyond the victim's remaining Wounds (at most +3).  Removes nobody: the
    round removes casualties after every attack (``DuelResult.removed``).
    """
    a, b = pair
    fa, fb = pair_fighters or fighters(state, a, b, first_round)
    res = duel(dice, fa, fb)
    if log is not None:
        log.emit("challenge_result", RULE_OVERKILL, **result_fields(fa, fb, res))
    return res


def result_fields(fa, fb, res: DuelResult) -> dict:
    """The ``challenge_result`` event's fields for the duel ``fa`` v ``fb`` that gave ``res``."""
    winner = None
    if len(res.removed) == 1:
        winner = fa.player if res.removed == [fb.model_id] else fb.player
    return dict(winner=winner, removed=list(res.removed),
                points=res.score.get(winner, 0) if winner else 0,
                overkill=res.overkill.get(winner, 0) if winner else 0,
                overkill_inflicted=res.overkill_inflicted.get(winner, 0) if winner else 0,
                scores=dict(res.score), inflicted={m: bl.inflicted for m, bl in res.blows.items()})


def clear_finished(state: Battlefield, units, log=None) -> Battlefield:
    """Drop the ``challenge:`` status of a duellist whose opponent is gone (¶7: the challenge
    is resolved); a challenge both survived stays, to go on next round."""
    changed = []
    for uid in units:
        if not state.has_unit(uid):
            continue
        for m in state.unit(uid).models:
            other = challenge_partner(m)
            if other is None:
                continue
            if on_table(state, other):
                if log is not None and m.id < other:
                    log.emit("challenge_continues_next_round", RULE_CONTINUE, models=[m.id, other])
                continue
            st = tuple(x for x in m.status if not x.startswith(CHALLENGE_STATUS_PREFIX))
            changed.append(replace(m, status=st, written=m.written | {"status"}))
    return state.with_models(changed)


def pair_in(state: Battlefield, units) -> tuple[str, str] | None:
    """The challenge being fought among ``units`` this round (from the duellists' status), or None."""
    return ongoing(state, units)
