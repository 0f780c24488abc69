"""The gambit Challenge Sub-phase (gambit-challenge.txt) as rows of the rules engine.

``challenge_rows(next_row)`` are entered at row ``"challenge"`` and end with
``goto(next_row)``; ``resolution_rows(next_row)`` are entered at
``"challenge_resolution"``.  The rows read ``state.battlefield`` and keep all
their bookkeeping in a frozen ``ChallengeMemo`` at ``state.memo.challenge``
(changed only by ``replace(state.memo, challenge=...)``; ``GambitOnly`` is
a minimal memo with just that field, for a run of the sub-phase alone and for
the odds).

For each combat (the geometry's engagement groups, in table order):

1. Declare (``gambit_issue``, ``gambit_accept``, ``gambit_disgrace``): the
   Active Player may issue a challenge, then the reactive player (named
   default ``ISSUE_ORDER``; the text says only "a player").  The opponent
   accepts with an eligible model or refuses; on a refusal the challenger's
   player gives the Disgraced status to one enemy model that could have
   accepted (halved WS and Ld for the phase; its unit counts as under a
   status).  Accepted: the Challenger and the Challenged are set aside
   together, out of play - taken off the battlefield, so the Fight step
   neither sees nor targets them; their copies (wounds updated) are in the
   memo's ``Duel``.
2. Face-Off (``gambit_face_off``, ``gambit_feint``, ``gambit_reply``;
   ``gambits.py`` has the choosing rules).  3. Focus (``gambit_weapon``:
   weapons, reactive player first; ``gambit_focus``: the Focus Rolls, one
   chance whose outcome is who takes the Challenge Advantage, ties re-rolled
   exactly).  4. Strike (``gambit_flurry``: Flurry of Blows' D3;
   ``gambit_strike``: each side's attacks, one chance whose outcome is the
   count of unsaved wounds, counted up to those that remove the defender
   (``STRIKE_COUNTED``), with the misses when Guard Up reads them).  On a
   draw the advantage holder may prolong (``gambit_prolong``: back to 2).
   5. Glory (``gambit_glory``: Withdraw, then the winner's points,
   ``strike.glory``).

Resolution (``challenge_resolution``, after the Fight step): every set-aside
model still alive goes back to its unit, in coherency and engaged where
possible, or into base contact with an enemy unit it was locked with if its
unit is gone (``geometry.placement.find_return_spot``; ``RETURN_ORDER``).
A spot found, and whether the model is engaged there, are kept by the models
near it (``_return_spot``, ``_engaged_flags``): the searches read nothing
farther, and the odds walk reaches the Resolution with many tables that differ
only far from the duellists.

Chances (``pending.Chance``): every outcome compares by what the rules read
(the Focus Roll's winner; a side's unsaved wounds, and its misses when the
enemy chose Guard Up; a D3).  ``draw(dice)`` rolls today's individual dice in
today's order (each roll logged by ``Dice``) and returns the outcome with
what the dice showed in fields that do not take part in comparisons (faces,
totals, re-rolls, hits, wounds), which the rows put in their events; the odds
(``walk``) see the bare outcome.

The default policy (``best_gambit``, ``best_ban``, ``best_weapon``,
``policy_pair``, and the issue, accept and prolong defaults) weighs one round
with ``pair_odds``: the exact walk of these same rows from the round's
Face-Off with the two gambits scripted (``ODDS_ROUNDS``), so the odds table
of ``tabletop fight --odds`` and the policy come from one copy of the rules.
The walk is cut where the Strike Step begins (``STRIKE_SPLIT``): the Face-Off
and Focus are walked per pair, the rest once per what it reads
(``strike_key``), so pairs whose rounds strike alike share it; within a round
states are keyed by the record alone (``round_key``).
Each search is a pure function of its situation (``situation``: the duel's
record as compared, the duellists as read, the rules and the Active Player;
the Declare step's ``duel_value`` and ``set_aside`` also read the table), so
it is done once per distinct situation and kept (``POLICY_CACHE`` entries):
the Fight phase's odds walk and its Monte Carlo runs meet the same situations
again and again.

The Fight phase's odds walk (``fight_phase.odds.key``) merges states by
``ChallengeMemo.ahead``: a duel under way by all of its record, a finished
one by who fought and what became of the two models only (its winner, points
and history feed only the events).

Disgraced (``DISGRACED_READS``): the status is written on the model; its
halved WS and Ld apply wherever a WS or Ld is read for the rest of the phase
(``characters.as_read``); its unit counts as under a status: no outside
support, Combat Initiative 1.  How long it lasts: ``DISGRACED_ENDS``
(``end_phase``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

from tabletop.board.frozen import evolve
from tabletop.board.state import Battlefield, Decision, Model, Unit
from tabletop.geometry import snapshot
from tabletop.geometry.placement import AsideBox, Spot, aside_box, find_return_spot
from tabletop.rules.challenges.characters import (
    DISGRACED,
    GAMBIT_ELIGIBILITY,
    as_read,
    can_fight_challenges,
    characteristic,
    has_status,
    not_a_candidate,
)
from tabletop.rules.challenges.duellist import Duellist, Weapon, duellist
from tabletop.rules.challenges.gambits import (
    FEINT,
    GAMBIT_NAMES,
    RULE_FACE_OFF,
    RULE_GAMBITS,
    allowed,
    first_chooser,
    gambit,
    precedence,
    why_not,
)
from tabletop.rules.challenges.strike import (
    RULE_FOCUS,
    RULE_GLORY,
    RULE_STRIKE,
    Blows,
    StrikeProfile,
    focus_dice,
    focus_modifiers,
    glory,
    hit_target,
    make_attacks,
    save_target,
    strike_profiles,
    wound_target,
)
from tabletop.rules.engine import walk
from tabletop.rules.engine.counts import successes
from tabletop.rules.engine.machine import (
    END,
    Machine,
    PhaseState,
    Row,
    StepMark,
    Transition,
    goto,
    wait,
)
from tabletop.rules.engine.pending import Chance, Question, uniform
from tabletop.rules.events import Event, make_event
from tabletop.rules.odds_summary import at_least, at_least_keys, counts

RULE_ELIGIBLE = "gambit-challenge.txt eligibility (list missing: characters.GAMBIT_ELIGIBILITY)"
RULE_DECLARE = "gambit-challenge.txt Step 1 (Declare)"
RULE_DISGRACED = "gambit-challenge.txt Disgraced"
RULE_SUPPORT = "gambit-challenge.txt Step 3 (Focus), outside support"
RULE_DRAW = "gambit-challenge.txt Step 4 (Strike), Draw"
RULE_RESOLUTION = "gambit-challenge.txt Resolution Sub-phase"
RULE_END = "gambit-challenge.txt Disgraced (removed in the End Phase)"

ISSUE_ORDER = ("active", "reactive")
PROLONG_LIMIT = 4
HARD_ROUND_LIMIT = 50
ISSUE_POLICY = "issue with the character whose worst case against the enemy's acceptors is best, if not losing"
ACCEPT_POLICY = "accept with the best acceptor unless it expects to lose more than REFUSE_COST points"
REFUSE_COST = Fraction(1)
DISGRACE_POLICY = "the eligible enemy model with the highest Leadership, then Weapon Skill, as read now (halved if already Disgraced)"
RESOLUTION_AFTER = "fight step"
RETURN_ORDER = "challenger then challenged, nearest where each stood; one not engaged is placed again once all are back"
WALKER_COUNTS = 5
DISGRACED_READS = ("WS and Ld halved wherever read (characters.as_read); the unit counts as under a status: "
                   "no outside support, Combat Initiative 1")
DISGRACED_ENDS = "at the end of the fight run (the turn's End Phase follows; a later run is a later phase)"
ODDS_ROUNDS = 1
POLICY_VALUE = "expected points difference, then win chance difference"
WITHDRAW_WHEN_LOSING = True
WEAPON_POLICY = "most expected wounds per Strike Step"
POLICY_CACHE = 20_000
MAX_FOCUS_REROLLS = 1000
STRIKE_COUNTED = ("the Strike chance counts a side's unsaved wounds up to those that remove the "
                  "defender; the dice's full count is in the event")


# ------------------------------------------------------------------ the memo
def _fz(d: dict) -> tuple:
    return tuple(d.items())


def _upd(obj: Any, **changes: Any) -> Any:
    """A copy of the frozen record ``obj`` with ``changes`` (``dataclasses.replace`` without
    its per-field work: these records have no ``__post_init__``)."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    new.__dict__.update(changes)
    return new


@dataclass(frozen=True)
class Round:
    """One Face-Off/Focus/Strike round of a duel.

    ``chosen``: ((player, gambit), ...) in the order chosen; ``banned``: named
    by Feint and Riposte; ``weapons``: ((player, weapon name), ...) chosen in
    the Focus Step; ``winner``: the Focus Roll's (the Challenge Advantage);
    ``flurry``: ((player, D3), ...); ``struck``: ((attacker, unsaved, misses,
    wounds removed), ...) in the order they attacked.  ``shown`` holds what the dice showed, for
    the events only (not compared).
    """

    no: int
    first: str
    precedence: str
    chosen: tuple[tuple[str, str], ...] = ()
    banned: tuple[str, ...] = ()
    weapons: tuple[tuple[str, str], ...] = ()
    winner: str | None = None
    flurry: tuple[tuple[str, int], ...] = ()
    profiles: tuple[tuple[str, StrikeProfile], ...] = ()
    struck: tuple[tuple[str, int, int | None, int], ...] = ()
    shown: tuple[tuple[str, Any], ...] = field(default=(), compare=False)

    def ahead(self) -> Hashable:
        """The round as the rest of the duel reads it (for merging equal states in the odds):
        of each side's blows only the misses (Guard Up banks them) and the Wounds removed; the
        unsaved wounds count only feeds the ``wounds`` event (four unsaved wounds on a model
        with two Wounds left remove it as three do)."""
        return (self.no, self.first, self.precedence, self.chosen, self.banned, self.weapons,
                self.winner, self.flurry, self.profiles,
                tuple((a, misses, take) for a, _, misses, take in self.struck))


@dataclass(frozen=True)
class GambitChallenge:
    """One challenge: who, the duel's state, the result, and what the Resolution needs.

    ``models``: the set-aside copies (wounds updated), ``units``: their units
    as at the start, ``unit_index``: where each unit stood in the table's
    order, ``origin``: where each model stood, ``locked_with``: the enemy units
    each was engaged with, ``aside``/``aside_box``: where frames draw the pair.
    ``support``: outside support by player; ``advantage``: the Challenge
    Advantage holder at the next Face-Off; ``banked``: Guard Up's Focus bonus;
    ``taunts``: times each player chose Taunt and Bait; ``caused``: Wounds
    each player's model caused; ``base``: each player's ``Duellist`` as read
    when set aside (only its wounds lost change during the duel).  All mappings are (key, value) tuples; read
    them with ``dict(...)``.
    """

    combat: tuple[str, ...]
    challenger: str
    challenged: str | None
    players: tuple[str, str]
    disgraced: str | None = None
    models: tuple[tuple[str, Model], ...] = ()
    units: tuple[tuple[str, Unit], ...] = ()
    unit_index: tuple[tuple[str, int], ...] = ()
    origin: tuple[tuple[str, tuple[float, float]], ...] = ()
    locked_with: tuple[tuple[str, tuple[str, ...]], ...] = ()
    aside: tuple[tuple[str, tuple[float, float]], ...] = ()
    aside_box: tuple[float, float, float, float] | None = None
    support: tuple[tuple[str, int], ...] = ()
    counted: tuple[tuple[str, tuple[str, ...]], ...] = ()
    advantage: str | None = None
    banked: tuple[tuple[str, int], ...] = ()
    taunts: tuple[tuple[str, int], ...] = ()
    caused: tuple[tuple[str, int], ...] = ()
    round_no: int = 0
    round: Round | None = None
    last: tuple[tuple[str, str], ...] = ()
    removed: tuple[str, ...] = ()
    withdraw_turn: int = 0
    done: bool = False
    winner: str | None = None
    points: int = 0
    attacks_from: str = "profile"
    base: tuple[tuple[str, Duellist], ...] = field(default=(), compare=False)

    @property
    def by_player(self) -> dict[str, str]:
        return {self.players[0]: self.challenger, self.players[1]: self.challenged or ""}

    @property
    def survivors(self) -> list[Model]:
        return [m for mid, m in self.models if mid not in self.removed]

    def model(self, mid: str) -> Model:
        return dict(self.models)[mid]

    def key(self) -> Hashable:
        """What the duel's future depends on (for merging equal states in the odds)."""
        return (self.combat, self.challenger, self.challenged, self.disgraced,
                tuple((mid, m.wounds_lost, m.status) for mid, m in self.models), self.support,
                self.advantage, self.banked, self.taunts, self.caused, self.round_no,
                self.round.ahead() if self.round is not None else None,
                self.last, self.removed, self.withdraw_turn, self.done, self.winner, self.points,
                self.attacks_from)

    def ahead(self) -> Hashable:
        """What the rest of the Fight phase reads of this challenge, for merging equal states
        in the phase's odds walk (``fight_phase.odds.key``): while the duel is fought, all of
        ``key()``; once it is over (``done``, or refused), only who fought, the Disgraced
        model and the set-aside models' wounds lost, statuses and removal, which the
        Resolution returns to the table.  The winner, the Glory points, the Wounds caused,
        Taunt and Bait's count and the rounds feed only the ``challenge_result`` and
        ``challenge_points`` events: two duels that differ only in them leave the phase alike.
        The set-aside copies' places, units and the aside box follow from who fought."""
        if not self.done and self.challenged is not None:
            return self.key()
        return (self.combat, self.challenger, self.challenged, self.disgraced,
                tuple((mid, m.wounds_lost, m.status) for mid, m in self.models), self.removed)


@dataclass(frozen=True)
class ChallengeMemo:
    """The Challenge Sub-phase's bookkeeping: the combats, where the Declare step is, who has
    fought, and every challenge (``challenges``; the one being fought is the last)."""

    combats: tuple[tuple[str, ...], ...] = ()
    index: int = 0
    issue_turn: int = 0
    issuer: str | None = None
    challenger: str | None = None
    fought: frozenset[str] = frozenset()
    challenges: tuple[GambitChallenge, ...] = ()

    def points(self) -> dict[str, int]:
        """Combat resolution points each player scored in challenges."""
        out: dict[str, int] = {}
        for c in self.challenges:
            if c.winner is not None:
                out[c.winner] = out.get(c.winner, 0) + c.points
        return out

    @property
    def set_aside(self) -> list[Model]:
        return [m for c in self.challenges for m in c.survivors]

    def key(self) -> Hashable:
        return (self.combats, self.index, self.issue_turn, self.issuer, self.challenger, self.fought,
                tuple(c.key() for c in self.challenges))

    def ahead(self) -> Hashable:
        """What the rest of the Fight phase reads of the sub-phase's record (hashable, for the
        phase's odds walk, ``fight_phase.odds.key``): where the Declare step is, who has fought,
        and each challenge's ``GambitChallenge.ahead``."""
        return (self.combats, self.index, self.issue_turn, self.issuer, self.challenger, self.fought,
                tuple(c.ahead() for c in self.challenges))


@dataclass(frozen=True)
class GambitOnly:
    """A minimal phase memo holding only the Challenge Sub-phase's bookkeeping."""

    challenge: Any = None


def _memo(state: PhaseState) -> ChallengeMemo:
    return state.memo.challenge


def _with(state: PhaseState, memo: ChallengeMemo) -> Any:
    if type(state.memo) is GambitOnly:                 # a round's walk: a plain record of one field
        return _upd(state.memo, challenge=memo)
    try:
        return evolve(state.memo, challenge=memo)      # the phase memos: plain frozen records
    except TypeError:                                  # a memo that checks itself in __post_init__
        return replace(state.memo, challenge=memo)


def _duel(state: PhaseState) -> GambitChallenge:
    return _memo(state).challenges[-1]


def _with_duel(state: PhaseState, duel: GambitChallenge) -> Any:
    m = _memo(state)
    return _with(state, _upd(m, challenges=m.challenges[:-1] + (duel,)))


def state_key(state: PhaseState) -> Hashable:
    """``walk``'s key: the row, what is pending, the scripted answers used, the memo's
    future-relevant parts and each model's (id, x, y, wounds lost, statuses)."""
    return (state.cursor, state.pending, state.used, _memo(state).key(), _table_key(state.battlefield))


def round_key(state: PhaseState) -> Hashable:
    """``state_key`` within one round of one duel (the walks of ``pair_odds``): the row, the
    scripted answers used and the memo's future-relevant parts.  A round's rows never change
    the table (the pair was set aside and outside support counted before its first Face-Off),
    and what is pending is made by the row from the record, so neither is compared (hashing
    them at every state is most of a key's cost)."""
    return (state.cursor, state.used, _memo(state).key())


_TABLES: dict[int, tuple[Battlefield, Hashable]] = {}


def _table_key(bf: Battlefield) -> Hashable:
    """Each model's (id, x, y, wounds lost, statuses), worked out once per table."""
    hit = _TABLES.get(id(bf))
    if hit is not None and hit[0] is bf:
        return hit[1]
    if len(_TABLES) > 256:
        _TABLES.clear()
    k = tuple((m.id, m.x, m.y, m.wounds_lost, m.status) for m in bf.models())
    _TABLES[id(bf)] = (bf, k)
    return k


_PLACES: dict[int, tuple[Battlefield, Hashable]] = {}


def _places_key(bf: Battlefield) -> Hashable:
    """Each model's (id, x, y), worked out once per table: where the models stand, all that
    the return plan reads of the table beyond ``_layout(bf).extra`` (``find_return_spot`` and the
    snapshot measure bases where they stand, never wounds lost or statuses)."""
    hit = _PLACES.get(id(bf))
    if hit is not None and hit[0] is bf:
        return hit[1]
    if len(_PLACES) > 256:
        _PLACES.clear()
    k = tuple((m.id, m.x, m.y) for m in bf.models())
    _PLACES[id(bf)] = (bf, k)
    return k


# ------------------------------------------------------------------ who, from the table
def eligible(state: Battlefield, combat: list[str] | tuple[str, ...], player: str,
             fought: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """Model ids of ``player`` eligible for a challenge in ``combat`` (``GAMBIT_ELIGIBILITY``)."""
    out = []
    for uid in combat:
        if not state.has_unit(uid):
            continue
        u = state.unit(uid)
        if u.player != player:
            continue
        out += [m.id for m in u.models if can_fight_challenges(m) and m.id not in fought]
    return out


def _weight(m: Model) -> int:
    if m.has("walker"):
        return WALKER_COUNTS
    if m.has("vehicle") or m.has("automata"):
        return 0
    return 1


def outside_support(state: Battlefield, combat: list[str] | tuple[str, ...], player: str,
                    geom=None) -> tuple[int, list[str], str]:
    """Outside support for ``player``'s Focus Roll, counted from the table.

    ``state`` is the table with the duellists set aside.  Normally +1 per
    five friendly models in the combat that are engaged (the snapshot's
    engagement range) and not under a status (their own, their unit's, or a
    Disgraced model's in their unit); Vehicles and Automata count 0, Walkers
    5.  When the opponent has no model left in the combat: +2 per full or
    partial five friendly models, engaged or not, statuses or not.

    Returns (bonus, the model ids counted, "engaged" | "no enemy left").
    """
    geom = geom or snapshot(state)
    friends: list[tuple[Model, Unit]] = []
    enemy_left = False
    for uid in combat:
        if not state.has_unit(uid):
            continue
        u = state.unit(uid)
        if u.player == player:
            friends += [(m, u) for m in u.models]
        elif u.models:
            enemy_left = True
    if not enemy_left:
        counted = [m.id for m, _ in friends if _weight(m) > 0]
        n = sum(_weight(m) for m, _ in friends)
        return 2 * math.ceil(n / 5), counted, "no enemy left"
    counted = [m.id for m, u in friends if _weight(m) > 0 and not has_status(m, u)
               and geom.model_engaged(m.id)]
    n = sum(_weight(state.model(mid)) for mid in counted)
    return n // 5, counted, "engaged"


def _read(m: Model, key: str) -> int:
    """``m``'s ``key`` (WS or Ld) as rolls and tests read it now (halved while Disgraced), 0 if absent."""
    return as_read(m, key, characteristic(m.profile, key, default=0) or 0)


def _why_not_eligible(state: Battlefield, combat, player: str, value: Any, fought) -> str:
    """The exact reason ``value`` is not an eligible model of ``player`` in ``combat``."""
    return (not_a_candidate(state, value, player, combat, fought=fought, vehicles_barred=True)
            or f"{value!r} is not eligible ({'; '.join(GAMBIT_ELIGIBILITY)})")


def duellists_of(ch: GambitChallenge) -> dict[str, Duellist]:
    """The two duellists as they stand now (by player): read when set aside (their units'
    statuses, the map's ``[rules] gambit_attacks``), with the wounds lost since."""
    lost = {mid: m.wounds_lost for mid, m in ch.models}
    out = {}
    for p, d in ch.base:
        n = lost[d.model_id]
        out[p] = d if d.wounds_lost == n else _lost(d, n)
    return out


@lru_cache(maxsize=POLICY_CACHE)
def _lost(d: Duellist, n: int) -> Duellist:
    return replace(d, wounds_lost=n)


def _other(players: tuple[str, str], p: str) -> str:
    return players[1] if p == players[0] else players[0]


def _ev(type_: str, rule: str, **data: Any) -> Event:
    return make_event(type_, rule, **data)


# ------------------------------------------------------------------ chance outcomes
@dataclass(frozen=True)
class FocusOutcome:
    """The Focus Rolls' outcome: who takes the Challenge Advantage.  ``totals``, ``faces``,
    ``kept`` (by player, of the deciding roll) and ``rerolls`` (ties re-rolled) are what the
    dice showed, for the events only."""

    winner: str
    totals: tuple[tuple[str, int], ...] = field(default=(), compare=False)
    faces: tuple[tuple[str, tuple[int, ...]], ...] = field(default=(), compare=False)
    kept: tuple[tuple[str, int], ...] = field(default=(), compare=False)
    rerolls: int = field(default=0, compare=False)


@dataclass(frozen=True)
class StrikeOutcome:
    """One side's attacks in the Strike Step: the unsaved wounds, and the misses when the
    enemy chose Guard Up (else None).  ``shown`` is the ``Blows`` the dice made (events only)."""

    unsaved: int
    misses: int | None = None
    shown: Blows | None = field(default=None, compare=False)


@lru_cache(maxsize=64)
def _kept_dist(name: str) -> tuple[tuple[int, Fraction], ...]:
    """The kept Focus die for gambit ``name``: one D6, or the highest or lowest of two."""
    g = gambit(name)
    if g.focus_dice == 1:
        return tuple((k, Fraction(1, 6)) for k in range(1, 7))
    if g.focus_keep == "highest":
        return tuple((k, Fraction(2 * k - 1, 36)) for k in range(1, 7))
    return tuple((k, Fraction(13 - 2 * k, 36)) for k in range(1, 7))


@lru_cache(maxsize=64)
def _kept_36(name: str) -> tuple[tuple[int, int], ...]:
    """``_kept_dist`` in 36ths (ints: every kept die's odds are a whole number of 36ths).

    Raises ``ValueError`` if one is not."""
    out = tuple((k, q * 36) for k, q in _kept_dist(name))
    if any(w.denominator != 1 for _, w in out):
        raise ValueError(f"gambit {name!r}: a Focus die's odds are not in 36ths")
    return tuple((k, int(w)) for k, w in out)


def focus_chance(sides: list[tuple[str, str, dict[str, int]]]) -> tuple[tuple[FocusOutcome, Fraction], ...]:
    """Exact odds of each player taking the Challenge Advantage (ties re-rolled until one is
    higher): ``sides`` [(player, gambit name, modifiers)] in the order they roll."""
    (pa, ga, ma), (pb, gb, mb) = sides
    return _focus_odds(pa, gambit(ga).name, sum(ma.values()), pb, gambit(gb).name, sum(mb.values()))


@lru_cache(maxsize=POLICY_CACHE)
def _focus_odds(pa: str, ga: str, sa: int, pb: str, gb: str, sb: int
                ) -> tuple[tuple[FocusOutcome, Fraction], ...]:
    """``focus_chance`` of two sides by what it reads: each player, gambit and total modifier
    (worked out once for each: every walk of a round weighs the same Focus Rolls)."""
    wa = wb = 0                     # in 36ths of 36ths (``_kept_36``)
    for ka, qa in _kept_36(ga):
        for kb, qb in _kept_36(gb):
            if ka + sa > kb + sb:
                wa += qa * qb
            elif ka + sa < kb + sb:
                wb += qa * qb
    out = [(FocusOutcome(pa), Fraction(wa, wa + wb)), (FocusOutcome(pb), Fraction(wb, wa + wb))]
    return tuple((o, p) for o, p in out if p)


def focus_draw(sides: list[tuple[str, str, dict[str, int]]]) -> Callable[[Any], FocusOutcome]:
    """The Focus chance's ``draw``: both Focus Rolls with ``Dice`` (each logged, purpose "Focus
    Roll", then "Focus Roll (tie re-roll)"), re-rolled on a tie until one total is higher."""

    def draw(dice) -> FocusOutcome:
        rerolls = 0
        while True:
            totals, faces, kept = {}, {}, {}
            for player, name, mods in sides:
                purpose = "Focus Roll" if rerolls == 0 else "Focus Roll (tie re-roll)"
                f, k = focus_dice(dice, gambit(name), purpose=purpose, player=player, modifiers=mods)
                faces[player], kept[player] = tuple(f), k
                totals[player] = k + sum(mods.values())
            (pa, ta), (pb, tb) = totals.items()
            if ta != tb:
                return FocusOutcome(pa if ta > tb else pb, _fz(totals), _fz(faces), _fz(kept), rerolls)
            rerolls += 1
            if rerolls > MAX_FOCUS_REROLLS:
                raise RuntimeError("Focus Rolls tied more than 1000 times (dice stuck?)")
    return draw


def unsaved_chance(prof: StrikeProfile, defender_ws: int, defender: Duellist) -> Fraction:
    """The chance one of ``prof``'s attacks becomes an unsaved wound (Hit, Wound, save)."""
    ht = hit_target(prof.ws, defender_ws)
    wt = wound_target(prof.strength, defender.t)
    if wt is None:
        return Fraction(0)
    st = save_target(defender, prof.ap)
    fail = Fraction(1) if st is None else Fraction(st - 1, 6)
    return Fraction(7 - ht, 6) * Fraction(7 - wt, 6) * fail


def strike_chance(prof: StrikeProfile, defender_ws: int, defender: Duellist, misses_read: bool
                  ) -> tuple[tuple[StrikeOutcome, Fraction], ...]:
    """Exact odds of one side's unsaved wounds (and misses, when ``misses_read``): counts of
    independent dice (``counts.successes``), never dice histories."""
    n = max(0, prof.attacks)
    q = unsaved_chance(prof, defender_ws, defender)
    if not misses_read:
        return tuple((StrikeOutcome(u), p) for u, p in successes(n, q))
    ph = Fraction(7 - hit_target(prof.ws, defender_ws), 6)
    per_hit = q / ph
    out: dict[StrikeOutcome, Fraction] = {}
    for h, p in successes(n, ph):
        for u, pu in successes(h, per_hit):
            o = StrikeOutcome(u, n - h)
            out[o] = out.get(o, Fraction(0)) + p * pu
    return tuple((o, p) for o, p in out.items() if p)


def _counted(unsaved: int, damage: int, left: int) -> int:
    """``unsaved`` as the Strike chance counts it (``STRIKE_COUNTED``): at most the unsaved
    wounds that remove the ``left`` Wounds at ``damage`` each."""
    if damage <= 0:
        return unsaved
    return min(unsaved, -(-left // damage))


@lru_cache(maxsize=POLICY_CACHE)
def strike_outcomes(prof: StrikeProfile, defender_ws: int, defender: Duellist, misses_read: bool,
                    left: int) -> tuple[tuple[StrikeOutcome, Fraction], ...]:
    """The Strike chance's outcomes against a defender with ``left`` Wounds (``STRIKE_COUNTED``):
    ``strike_chance`` with the unsaved wounds counted up to those that remove the defender (at
    the profile's Damage each), whose rest the rules never read.  Exact ``Fraction``s summing
    to 1, in ``strike_chance``'s order."""
    out: dict[StrikeOutcome, Fraction] = {}
    for o, p in strike_chance(prof, defender_ws, defender, misses_read):
        k = StrikeOutcome(_counted(o.unsaved, prof.damage, left), o.misses)
        out[k] = out.get(k, Fraction(0)) + p
    return tuple(out.items())


# ------------------------------------------------------------------ rows: Declare
def _start(state: PhaseState, next_row: str) -> Transition:
    combats = tuple(tuple(c) for c in snapshot(state.battlefield).engagements)
    return goto(state, "gambit_combat", memo=_with(state, ChallengeMemo(combats=combats)))


def _combat(state: PhaseState, next_row: str) -> Transition:
    m = _memo(state)
    if m.index >= len(m.combats):
        return goto(state, next_row)
    return goto(state, "gambit_issue", memo=_with(state, _upd(m, issue_turn=0, issuer=None, challenger=None)))


def _next_combat(state: PhaseState, memo: Any, events=()) -> Transition:
    m = memo.challenge
    nxt = _upd(m, index=m.index + 1)
    after = _upd(memo, challenge=nxt) if type(memo) is GambitOnly else replace(memo, challenge=nxt)
    return goto(state, "gambit_combat", tuple(events), memo=after)


def _who(bf: Battlefield, turn: int) -> str:
    active = bf.active_player
    return active if ISSUE_ORDER[turn] == "active" else bf.other_player(active)


def _issue(state: PhaseState) -> Transition:
    bf, m = state.battlefield, _memo(state)
    combat = m.combats[m.index]
    turn = m.issue_turn
    while turn < len(ISSUE_ORDER):
        who = _who(bf, turn)
        mine = eligible(bf, combat, who, m.fought)
        theirs = eligible(bf, combat, bf.other_player(who), m.fought)
        if mine and theirs:
            break
        turn += 1
    else:
        return _next_combat(state, state.memo)

    def default() -> str:
        vals = {c: min(duel_value(bf, combat, who, c, a) for a in theirs) for c in mine}
        best = max(mine, key=lambda c: vals[c])
        return best if vals[best] >= 0 else "none"

    q = Question(who, "issue_challenge", tuple(mine) + ("none",), None, RULE_DECLARE,
                 context=(("combat", combat),), default_fn=default,
                 why_not=lambda v: _why_not_eligible(bf, combat, who, v, m.fought))
    return wait(state, q, memo=_with(state, _upd(m, issue_turn=turn)))


def _issue_resume(state: PhaseState, value: Any) -> Transition:
    m = _memo(state)
    if value == "none":
        return goto(state, "gambit_issue", memo=_with(state, _upd(m, issue_turn=m.issue_turn + 1)))
    who = _who(state.battlefield, m.issue_turn)
    ev = _ev("challenge_issued", RULE_DECLARE, player=who, challenger=value, combat=list(m.combats[m.index]))
    return goto(state, "gambit_accept", (ev,), memo=_with(state, _upd(m, issuer=who, challenger=value)))


def _accept(state: PhaseState) -> Transition:
    bf, m = state.battlefield, _memo(state)
    combat, issuer, challenger = m.combats[m.index], m.issuer, m.challenger
    assert issuer is not None and challenger is not None   # _issue_resume set both
    other = bf.other_player(issuer)
    theirs = eligible(bf, combat, other, m.fought)

    def default() -> str:
        vals = {a: duel_value(bf, combat, issuer, challenger, a) for a in theirs}
        best = min(theirs, key=lambda a: vals[a])
        return best if vals[best] <= REFUSE_COST else "refuse"

    q = Question(other, "accept_challenge", tuple(theirs) + ("refuse",), None, RULE_DECLARE,
                 default_fn=default, why_not=lambda v: _why_not_eligible(bf, combat, other, v, m.fought))
    return wait(state, q)


def _accept_resume(state: PhaseState, value: Any) -> Transition:
    bf, m = state.battlefield, _memo(state)
    combat, issuer, challenger = m.combats[m.index], m.issuer, m.challenger
    assert issuer is not None and challenger is not None   # _issue_resume set both
    other = bf.other_player(issuer)
    if value == "refuse":
        ch = GambitChallenge(combat, challenger, None, (issuer, other))
        return goto(state, "gambit_disgrace", memo=_with(state, _upd(m, challenges=m.challenges + (ch,))))
    events: list = [_ev("challenge_accepted", RULE_DECLARE, player=other, challenged=value)]
    after, ch = set_aside(bf, combat, challenger, value, (issuer, other),
                          [c.aside_box for c in m.challenges if c.aside_box])
    events += [_ev("set_aside", RULE_DECLARE, models=[m.challenger, value], combat=list(combat),
                   players=list(ch.players), aside={k: list(p) for k, p in ch.aside},
                   box=list(ch.aside_box) if ch.aside_box else None),
               StepMark("Challenge: set aside", RULE_DECLARE, after)]
    memo = _upd(m, challenges=m.challenges + (ch,), fought=m.fought | {m.challenger, value})
    return goto(replace(state, battlefield=after), "gambit_support", tuple(events), memo=_with(state, memo))


def set_aside(bf: Battlefield, combat: tuple[str, ...], challenger: str, challenged: str,
              players: tuple[str, str], taken=()) -> tuple[Battlefield, GambitChallenge]:
    """Take the Challenger and the Challenged off ``bf`` (the table without them) and the
    challenge's record: where they stood, their units, whom they were locked with, where
    frames draw the pair (beside the combat, over no base and no other pair's box).  The
    record is worked out once per table and pair (the aside box's geometry is costly, and
    every run of a sampled phase sets the same pair aside from the same table)."""
    key = (_table_key(bf), _table_extra(bf), bf.rules, tuple(combat), challenger, challenged,
           tuple(players), tuple(tuple(b) for b in taken))
    ch = _cached("aside", key, lambda: _aside_record(bf, combat, challenger, challenged, players, taken))
    return bf.without_models([challenger, challenged]), ch


def _aside_record(bf: Battlefield, combat: tuple[str, ...], challenger: str, challenged: str,
                  players: tuple[str, str], taken=()) -> GambitChallenge:
    geom = snapshot(bf)
    a, b = bf.model(challenger), bf.model(challenged)
    order = [u.id for u in bf.units]
    box: AsideBox = aside_box(bf, combat, [a, b], skip=(a.id, b.id), avoid=taken)
    ch = GambitChallenge(
        combat, challenger, challenged, players,
        models=((a.id, a), (b.id, b)),
        units=tuple((x.id, bf.unit(x.unit_id)) for x in (a, b)),
        unit_index=tuple((x.id, order.index(x.unit_id)) for x in (a, b)),
        origin=tuple((x.id, x.at) for x in (a, b)),
        locked_with=tuple((x.id, tuple(u for u in geom.engaged_units(x.unit_id) if u in combat))
                          for x in (a, b)),
        aside=tuple(box.centres.items()), aside_box=box.box,
        caused=((players[0], 0), (players[1], 0)),
        attacks_from=bf.rules.gambit_attacks,
        base=tuple((p, duellist(x, p, bf.unit(x.unit_id), bf.rules.gambit_attacks))
                   for p, x in zip(players, (a, b))))
    return ch


def _disgrace(state: PhaseState) -> Transition:
    bf, m = state.battlefield, _memo(state)
    combat, issuer = m.combats[m.index], m.issuer
    assert issuer is not None   # _issue_resume set it
    other = bf.other_player(issuer)
    theirs = eligible(bf, combat, other, m.fought)
    dflt = max(theirs, key=lambda x: (_read(bf.model(x), "Ld"), _read(bf.model(x), "WS")))
    q = Question(issuer, "disgrace", tuple(theirs), dflt, RULE_DISGRACED,
                 why_not=lambda v: "it could not have accepted: " + _why_not_eligible(bf, combat, other, v, m.fought))
    return wait(state, q)


def _disgrace_resume(state: PhaseState, who: Any) -> Transition:
    bf, m = state.battlefield, _memo(state)
    ch = m.challenges[-1]
    model = bf.model(who)
    if DISGRACED not in model.status:
        bf = bf.with_models([replace(model, status=model.status + (DISGRACED,),
                                     written=model.written | {"status"})])
    prof = bf.model(who).profile
    events = (_ev("challenge_refused", RULE_DISGRACED, player=ch.players[1], disgraced=who,
                  **{k: _read(bf.model(who), k) for k in ("WS", "Ld") if k in prof}),
              StepMark("Challenge refused: Disgraced", RULE_DISGRACED, bf))
    memo = _with(state, _upd(m, challenges=m.challenges[:-1] + (_upd(ch, disgraced=who),)))
    return _next_combat(replace(state, battlefield=bf), memo, events)


def _support(state: PhaseState) -> Transition:
    bf, ch = state.battlefield, _duel(state)
    geom = snapshot(bf)
    support, counted, events = {}, {}, []
    for p in ch.players:
        support[p], ids, how = outside_support(bf, ch.combat, p, geom)
        counted[p] = tuple(ids)
        events.append(_ev("outside_support", RULE_SUPPORT, player=p, bonus=support[p], models=ids, counted=how))
    duel = _upd(ch, support=_fz(support), counted=_fz(counted))
    return goto(state, "gambit_face_off", tuple(events), memo=_with_duel(state, duel))


# ------------------------------------------------------------------ rows: Face-Off
def _face_off(state: PhaseState) -> Transition:
    ch = _duel(state)
    no = ch.round_no + 1
    first = first_chooser(no, ch.players[0], ch.advantage)
    rnd = Round(no, first, precedence(ch.advantage, state.battlefield.active_player))
    start = state
    options = tuple(allowed(True, [], []))
    q = Question(first, "gambit", options, None, RULE_FACE_OFF,
                 context=(("round", no), ("first", True), ("chosen", ())),
                 default_fn=lambda: best_gambit(start, first, list(options), {}, []),
                 why_not=lambda v: why_not(v, True, [], []) or "not allowed")
    return wait(state, q, memo=_with_duel(state, _upd(ch, round_no=no, round=rnd)))


def _round_start(state: PhaseState) -> PhaseState:
    """The state as this round's Face-Off began (what the default policy weighs from)."""
    ch = _duel(state)
    duel = _upd(ch, round_no=ch.round_no - 1, round=None)
    return PhaseState(state.battlefield, _with_duel(state, duel), "gambit_face_off")


def _chosen(state: PhaseState, player: str, value: Any, first: bool) -> tuple[Round, list]:
    ch = _duel(state)
    rnd = ch.round
    assert rnd is not None   # _face_off started the round
    name = gambit(value).name
    rnd = _upd(rnd, chosen=rnd.chosen + ((player, name),))
    return rnd, [_ev("gambit_chosen", RULE_FACE_OFF, player=player, gambit=name, first=first, round=rnd.no)]


def _face_off_resume(state: PhaseState, value: Any) -> Transition:
    ch = _duel(state)
    assert ch.round is not None   # _face_off started the round
    rnd, events = _chosen(state, ch.round.first, value, True)
    nxt = "gambit_feint" if gambit(value).bans else "gambit_reply"
    return goto(state, nxt, tuple(events), memo=_with_duel(state, _upd(ch, round=rnd)))


def _feint(state: PhaseState) -> Transition:
    ch = _duel(state)
    rnd = ch.round
    assert rnd is not None   # _face_off started the round
    name = rnd.chosen[0][1]
    names = tuple(n for n in GAMBIT_NAMES if n != name)
    start = _round_start(state)
    q = Question(rnd.first, "feint", names, None, RULE_GAMBITS,
                 default_fn=lambda: best_ban(start, rnd.first, list(names)),
                 why_not=lambda v: f"{v!r} is not another gambit")
    return wait(state, q)


def _feint_resume(state: PhaseState, value: Any) -> Transition:
    ch = _duel(state)
    ban = gambit(value).name
    assert ch.round is not None   # _face_off started the round
    rnd = _upd(ch.round, banned=ch.round.banned + (ban,))
    ev = _ev("gambit_banned", RULE_GAMBITS, player=rnd.first, gambit=ban)
    return goto(state, "gambit_reply", (ev,), memo=_with_duel(state, _upd(ch, round=rnd)))


def _reply(state: PhaseState) -> Transition:
    ch = _duel(state)
    rnd = ch.round
    assert rnd is not None   # _face_off started the round
    second = _other(ch.players, rnd.first)
    taken = [g for _, g in rnd.chosen]
    banned = list(rnd.banned)
    options = tuple(allowed(False, taken, banned))
    start = _round_start(state)
    chosen = dict(rnd.chosen)
    q = Question(second, "gambit", options, None, RULE_FACE_OFF,
                 context=(("round", rnd.no), ("first", False), ("chosen", rnd.chosen)),
                 default_fn=lambda: best_gambit(start, second, list(options), chosen, banned),
                 why_not=lambda v: why_not(v, False, taken, banned) or "not allowed")
    return wait(state, q)


def _reply_resume(state: PhaseState, value: Any) -> Transition:
    ch = _duel(state)
    assert ch.round is not None   # _face_off started the round
    second = _other(ch.players, ch.round.first)
    rnd, events = _chosen(state, second, value, False)
    taunts = dict(ch.taunts)
    for p, g in rnd.chosen:
        if gambit(g).taunt:
            taunts[p] = taunts.get(p, 0) + 1
    duel = _upd(ch, round=rnd, taunts=tuple(sorted(taunts.items())), last=rnd.chosen)
    events.append(StepMark(f"Face-Off (round {rnd.no})", RULE_FACE_OFF, state.battlefield))
    return goto(state, "gambit_weapon", tuple(events), memo=_with_duel(state, duel))


# ------------------------------------------------------------------ rows: Focus
def _weapon_order(state: PhaseState) -> tuple[str, str]:
    active = state.battlefield.active_player
    return state.battlefield.other_player(active), active


def _weapon(state: PhaseState) -> Transition:
    ch = _duel(state)
    order = _weapon_order(state)
    assert ch.round is not None   # _face_off started the round
    p = order[len(ch.round.weapons)]
    ds = duellists_of(ch)
    names = tuple(w.name for w in ds[p].weapons)
    q = Question(p, "weapon", names, best_weapon(ds[p], ds[_other(ch.players, p)]), RULE_FOCUS,
                 why_not=lambda v: f"{v!r} is not a weapon of this model ({', '.join(names)})")
    return wait(state, q)


def _weapon_resume(state: PhaseState, value: Any) -> Transition:
    ch = _duel(state)
    order = _weapon_order(state)
    assert ch.round is not None   # _face_off started the round
    p = order[len(ch.round.weapons)]
    rnd = _upd(ch.round, weapons=ch.round.weapons + ((p, value),))
    ev = _ev("weapon_chosen", RULE_FOCUS, player=p, model=ch.by_player[p], weapon=value)
    nxt = "gambit_focus" if len(rnd.weapons) == 2 else "gambit_weapon"
    return goto(state, nxt, (ev,), memo=_with_duel(state, _upd(ch, round=rnd)))


def _focus_sides(ch: GambitChallenge) -> tuple[list[tuple[str, str, dict[str, int]]], dict[str, dict]]:
    ds = duellists_of(ch)
    assert ch.round is not None   # _face_off started the round
    chosen, wps = dict(ch.round.chosen), dict(ch.round.weapons)
    support, banked = dict(ch.support), dict(ch.banked)
    sides: list[tuple[str, str, dict[str, int]]] = []
    focus: dict[str, dict[str, Any]] = {}
    for p in ch.players:
        mods, dropped = focus_modifiers(ds[p], ds[p].weapon(wps[p]), gambit(chosen[p]), support[p],
                                        banked.get(p, 0))
        focus[p] = {"modifiers": mods, "dropped": dropped}
        if ds[p].combat_initiative is not None:
            focus[p]["combat_initiative"] = ds[p].combat_initiative   # a status sets it
        sides.append((p, chosen[p], mods))
    return sides, focus


def _focus(state: PhaseState) -> Transition:
    ch = _duel(state)
    sides, _ = _focus_sides(ch)
    c = Chance("Focus Roll", RULE_FOCUS, focus_chance(sides), draw=focus_draw(sides))
    return wait(state, c)


def _focus_resume(state: PhaseState, out: FocusOutcome) -> Transition:
    ch = _duel(state)
    sides, focus = _focus_sides(ch)
    assert ch.round is not None   # _face_off started the round
    chosen = dict(ch.round.chosen)
    faces, kept = dict(out.faces), dict(out.kept)
    for p in ch.players:
        if p in faces:
            focus[p].update(dice=list(faces[p]), total=dict(out.totals)[p], keep=gambit(chosen[p]).focus_keep,
                            kept=kept[p])
    rnd = _upd(ch.round, winner=out.winner)
    duel = _upd(ch, round=rnd, banked=(), advantage=out.winner)
    events = (_ev("challenge_advantage", RULE_FOCUS, player=out.winner, totals=dict(out.totals),
                  rerolls=out.rerolls, rolls=focus),
              StepMark(f"Focus (round {rnd.no})", RULE_FOCUS, state.battlefield))
    return goto(state, "gambit_flurry", events, memo=_with_duel(state, duel))


# ------------------------------------------------------------------ rows: Strike
def _flurry(state: PhaseState) -> Transition:
    ch = _duel(state)
    rnd = ch.round
    assert rnd is not None and rnd.winner is not None   # _focus_resume set the round's winner
    chosen, rolled = dict(rnd.chosen), dict(rnd.flurry)
    for p in ch.players:
        if gambit(chosen[p]).attacks_d3 and p not in rolled:
            def draw(dice: Any, p: str = p) -> int:
                return dice.d3(purpose="Flurry of Blows attacks", player=p, rule=RULE_STRIKE)

            return wait(state, Chance("Flurry of Blows attacks", RULE_STRIKE, uniform((1, 2, 3)), player=p,
                                      draw=draw))
    ds = duellists_of(ch)
    wps = dict(rnd.weapons)
    sides = {p: (ds[p], ds[p].weapon(wps[p]), gambit(chosen[p])) for p in ch.players}
    profs = strike_profiles(sides, rnd.winner, rnd.precedence, rolled, dict(ch.support))   # PRECEDENCE_WHEN
    events = tuple(_ev("strike_profile", RULE_STRIKE, player=p, model=ch.by_player[p], WS=pr.ws, A=pr.attacks,
                       S=pr.strength, AP=pr.ap, D=pr.damage, notes=list(pr.notes), precedence=rnd.precedence)
                   for p, pr in profs.items())
    duel = _upd(ch, round=_upd(rnd, profiles=tuple(profs.items())))
    return goto(state, "gambit_strike", events, memo=_with_duel(state, duel))


def _flurry_resume(state: PhaseState, value: int) -> Transition:
    ch = _duel(state)
    assert ch.round is not None   # _face_off started the round
    rolled = dict(ch.round.flurry)
    p = next(p for p in ch.players if gambit(dict(ch.round.chosen)[p]).attacks_d3 and p not in rolled)
    return goto(state, "gambit_flurry", memo=_with_duel(state, _upd(ch, round=_upd(
        ch.round, flurry=ch.round.flurry + ((p, value),)))))


def _left(ch: GambitChallenge, ds: dict[str, Duellist], p: str) -> int:
    """Wounds ``p``'s model has left now (``ds``: as the round began; this round's blows taken off)."""
    left = ds[p].wounds_left
    assert ch.round is not None   # read only while a round is fought
    for a, _, _, t in ch.round.struck:
        if a != p:
            left -= t
    return left


def _damage(ch: GambitChallenge) -> dict[str, int]:
    """Wounds each attacker removed this round so far."""
    assert ch.round is not None   # read only while a round is fought
    return {a: t for a, _, _, t in ch.round.struck}


def _strike(state: PhaseState) -> Transition:
    ch = _duel(state)
    rnd = ch.round
    assert rnd is not None and rnd.winner is not None   # _focus_resume set the round's winner
    ds = _round_duellists(ch)
    profs = dict(rnd.profiles)
    order = (rnd.winner, _other(ch.players, rnd.winner))
    done = [a for a, _, _, _ in rnd.struck]
    dead = [p for p in ch.players if _left(ch, ds, p) <= 0 < ds[p].wounds_left]
    for atk in order:
        dfn = _other(ch.players, atk)
        if atk in done or atk in dead or dfn in dead:
            continue
        reads = bool(gambit(dict(rnd.chosen)[dfn]).focus_per_enemy_miss)
        return wait(state, _strike_roll(atk, profs[atk], profs[dfn].ws, ds[dfn], reads, _left(ch, ds, dfn)))
    return _strike_done(state)


@lru_cache(maxsize=POLICY_CACHE)
def _strike_roll(atk: str, prof: StrikeProfile, defender_ws: int, defender: Duellist, reads: bool,
                 left: int) -> Chance:
    """The Strike chance of ``atk``'s attacks (``strike_outcomes``; ``draw`` rolls them with
    ``make_attacks``), made once per what it reads: the walks and runs meet the same blows
    again and again."""
    def draw(dice) -> StrikeOutcome:
        b = make_attacks(dice, prof, defender_ws, defender, left)
        return StrikeOutcome(_counted(b.unsaved, prof.damage, left), b.misses if reads else None, b)

    return Chance("Strike", RULE_STRIKE, strike_outcomes(prof, defender_ws, defender, reads, left),
                  player=atk, draw=draw)


def _round_duellists(ch: GambitChallenge) -> dict[str, Duellist]:
    """The duellists as the round began (wounds lost before this round's blows)."""
    if ch.round is None or not ch.round.struck:
        return duellists_of(ch)
    taken = {_other(ch.players, a): t for a, _, _, t in ch.round.struck}
    lost = {mid: m.wounds_lost for mid, m in ch.models}
    out = {}
    for p, d in ch.base:
        n = lost[d.model_id] - taken.get(p, 0)
        out[p] = d if d.wounds_lost == n else _lost(d, n)
    return out


def _strike_resume(state: PhaseState, out: StrikeOutcome) -> Transition:
    ch = _duel(state)
    rnd = ch.round
    assert rnd is not None and rnd.winner is not None   # _focus_resume set the round's winner
    done = [a for a, _, _, _ in rnd.struck]
    ds = _round_duellists(ch)
    dead = [p for p in ch.players if _left(ch, ds, p) <= 0 < ds[p].wounds_left]
    atk = next(a for a in (rnd.winner, _other(ch.players, rnd.winner))
               if a not in done and a not in dead and _other(ch.players, a) not in dead)
    dfn = _other(ch.players, atk)
    take = min(out.unsaved * dict(rnd.profiles)[atk].damage, _left(ch, ds, dfn))
    rnd = _upd(rnd, struck=rnd.struck + ((atk, out.unsaved, out.misses, take),),
                  shown=rnd.shown + ((atk, out.shown),))
    models = dict(ch.models)
    m = models[ch.by_player[dfn]]
    models[m.id] = _upd(m, wounds_lost=m.wounds_lost + take, written=m.written | {"wounds_lost"})
    caused = dict(ch.caused)
    caused[atk] = caused.get(atk, 0) + take
    ch2 = _upd(ch, round=rnd, models=tuple(models.items()), caused=_fz(caused))
    return goto(state, "gambit_strike", memo=_with_duel(state, ch2))


def _strike_done(state: PhaseState) -> Transition:
    ch = _duel(state)
    rnd = ch.round
    assert rnd is not None and rnd.winner is not None   # _focus_resume set the round's winner
    ds = _round_duellists(ch)
    profs = dict(rnd.profiles)
    shown = dict(rnd.shown)
    damage = _damage(ch)
    events: list = []
    banked: dict[str, int] = {}
    removed = list(ch.removed)
    by_player, chosen = ch.by_player, dict(rnd.chosen)
    for atk, unsaved, misses, _ in rnd.struck:
        dfn = _other(ch.players, atk)
        b = shown.get(atk) or Blows(attacks=profs[atk].attacks, unsaved=unsaved,
                                    misses=misses or 0, damage=damage[atk])
        events.append(_ev("wounds", RULE_STRIKE, model=by_player[dfn], by=by_player[atk],
                          attacks=b.attacks, hits=b.hits,
                          wounds=b.wounds, unsaved=b.unsaved, lost=damage[atk],
                          wounds_left=ds[dfn].wounds_left - damage[atk]))
        g = gambit(chosen[dfn])
        if g.focus_per_enemy_miss and misses:
            banked[dfn] = g.focus_per_enemy_miss * misses
    gone = [p for p in (rnd.winner, _other(ch.players, rnd.winner))
            if ds[p].wounds_left > 0 and ds[p].wounds_left - damage.get(_other(ch.players, p), 0) <= 0]
    for p in gone:
        removed.append(by_player[p])
        events.append(_ev("removed", RULE_STRIKE, model=by_player[p]))
    duel = _upd(ch, removed=tuple(removed), banked=tuple(sorted(banked.items())))
    events.append(StepMark(f"Strike (round {rnd.no})", RULE_STRIKE, state.battlefield))
    if gone:
        return goto(state, "gambit_glory", tuple(events), memo=_with_duel(state, duel))
    nxt = rnd.winner
    for p, name in rnd.chosen:
        if gambit(name).advantage_next and by_player[p] not in duel.removed:
            nxt = p
    duel = _upd(duel, advantage=nxt)
    if rnd.no >= HARD_ROUND_LIMIT:
        events.append(_ev("prolong_limit", RULE_DRAW, rounds=rnd.no,
                          reason=f"named default HARD_ROUND_LIMIT {HARD_ROUND_LIMIT}: the text sets no limit"))
        return goto(state, "gambit_glory", tuple(events), memo=_with_duel(state, duel))
    return goto(state, "gambit_prolong", tuple(events), memo=_with_duel(state, duel))


def _prolong(state: PhaseState) -> Transition:
    ch = _duel(state)
    assert ch.round is not None and ch.round.winner is not None   # _focus_resume set the round's winner
    holder = ch.round.winner

    def default() -> bool:
        if ch.round_no >= PROLONG_LIMIT:
            return False
        now = _glory(ch)
        other = _other(ch.players, holder)
        stop = now.points if now.winner == holder else -now.points if now.winner == other else 0
        again = PhaseState(state.battlefield, _with_duel(state, _upd(ch, round=None)), "gambit_face_off")
        best, _ = policy_pair(again)
        return best.points[holder] - best.points[other] > stop

    return wait(state, Question(holder, "prolong", (True, False), None, RULE_DRAW, default_fn=default))


def _prolong_resume(state: PhaseState, value: Any) -> Transition:
    ch = _duel(state)
    assert ch.round is not None   # _face_off started the round
    ev = _ev("prolong", RULE_DRAW, player=ch.round.winner, value=bool(value))
    if value:
        return goto(state, "gambit_face_off", (ev,), memo=_with_duel(state, _upd(ch, round=None)))
    return goto(state, "gambit_glory", (ev,))


# ------------------------------------------------------------------ rows: Glory
def _glory(ch: GambitChallenge, withdrawn: str | None = None):
    removed_players = [p for p in ch.players if ch.by_player[p] in ch.removed]
    return glory(duellists_of(ch), removed_players, dict(ch.caused), dict(ch.taunts), withdrawn=withdrawn)


def _glory_row(state: PhaseState) -> Transition:
    ch = _duel(state)
    last = dict(ch.last)
    for k in range(ch.withdraw_turn, 2):
        p = ch.players[k]
        if gambit(last[p]).may_withdraw and ch.by_player[p] not in ch.removed:
            q = Question(p, "withdraw", (True, False), _glory(ch).winner not in (None, p), RULE_GLORY)
            return wait(state, q, memo=_with_duel(state, _upd(ch, withdraw_turn=k)))
    return _glory_end(state, ch, None)


def _glory_resume(state: PhaseState, value: Any) -> Transition:
    ch = _duel(state)
    if value:
        return _glory_end(state, ch, ch.players[ch.withdraw_turn])
    return goto(state, "gambit_glory", memo=_with_duel(state, _upd(ch, withdraw_turn=ch.withdraw_turn + 1)))


def _glory_end(state: PhaseState, ch: GambitChallenge, withdrawn: str | None) -> Transition:
    result = _glory(ch, withdrawn)
    duel = _upd(ch, winner=result.winner, points=result.points, done=True, round=None,
                   withdraw_turn=0)
    events = (_ev("challenge_result", RULE_GLORY, winner=result.winner,
                  winner_model=ch.by_player[result.winner] if result.winner else None,
                  removed=list(ch.removed), points=result.points, overkill=None, reason=result.reason,
                  withdrawn=withdrawn, wounds_caused=dict(ch.caused), rounds=ch.round_no),
              StepMark("Glory", RULE_GLORY, state.battlefield))
    return _next_combat(state, _with_duel(state, duel), events)


def challenge_rows(next_row: str) -> list[Row]:
    """The Challenge Sub-phase's rows, entered at ``"challenge"``, ending with ``goto(next_row)``."""
    return [
        Row("challenge", "Challenge Sub-phase", "gambit-challenge.txt (Challenge Sub-phase)",
            lambda s: _start(s, next_row)),
        Row("gambit_combat", "Challenge: next combat", RULE_DECLARE, lambda s: _combat(s, next_row)),
        Row("gambit_issue", "Declare: issue", RULE_DECLARE, _issue, _issue_resume),
        Row("gambit_accept", "Declare: accept", RULE_DECLARE, _accept, _accept_resume),
        Row("gambit_disgrace", "Declare: Disgraced", RULE_DISGRACED, _disgrace, _disgrace_resume),
        Row("gambit_support", "Focus: outside support", RULE_SUPPORT, _support),
        Row("gambit_face_off", "Face-Off: first gambit", RULE_FACE_OFF, _face_off, _face_off_resume),
        Row("gambit_feint", "Face-Off: Feint and Riposte", RULE_GAMBITS, _feint, _feint_resume),
        Row("gambit_reply", "Face-Off: second gambit", RULE_FACE_OFF, _reply, _reply_resume),
        Row("gambit_weapon", "Focus: weapons", RULE_FOCUS, _weapon, _weapon_resume),
        Row("gambit_focus", "Focus Rolls", RULE_FOCUS, _focus, _focus_resume),
        Row("gambit_flurry", "Strike: Flurry of Blows", RULE_STRIKE, _flurry, _flurry_resume),
        Row("gambit_strike", "Strike", RULE_STRIKE, _strike, _strike_resume),
        Row("gambit_prolong", "Draw: prolong?", RULE_DRAW, _prolong, _prolong_resume),
        Row("gambit_glory", "Glory", RULE_GLORY, _glory_row, _glory_resume),
    ]


# ------------------------------------------------------------------ Resolution
def _put_back(state: Battlefield, model: Model, template: Unit, index: int) -> Battlefield:
    """``model`` back into its unit (re-adding the unit when it is gone)."""
    def num(m: Model) -> int:
        return int(m.id.rsplit("/", 1)[1])

    if state.has_unit(template.id):
        u = state.unit(template.id)
        return state.with_unit(replace(u, models=tuple(sorted(u.models + (model,), key=num))))
    units = list(state.units)
    units.insert(min(index, len(units)), replace(template, models=(model,)))
    return replace(state, units=tuple(units))


def _return_one(state: Battlefield, ch: GambitChallenge, m: Model, player: str) -> tuple[Battlefield, str | None]:
    """Place one set-aside model (``find_return_spot``, kept by ``_return_spot``); (new state,
    a note when no legal spot)."""
    origin = dict(ch.origin)[m.id]
    spot = _return_spot(state, m, player, tuple(dict(ch.locked_with).get(m.id, ())), origin)
    note = None
    if spot is None:
        at, note = origin, "no legal spot found: left where it stood"
    else:
        at = spot.at
    return _put_back(state, m.moved_to(*at), dict(ch.units)[m.id], dict(ch.unit_index)[m.id]), note


_SPOTS: dict[Hashable, dict[tuple[float, float], dict[Hashable, Spot]]] = {}
SPOT_SLACK = 1e-6       # inches added to a kept spot's reach (float rounding in the gaps)


def _circum(m: Model) -> float:
    """The radius (inches) of a circle round ``m``'s centre holding its whole base."""
    return math.hypot(m.base.along, m.base.across) / 2.0


@dataclass(frozen=True)
class _Layout:
    """Where a table's models stand, as the Resolution's searches read it, worked out once per
    table (``_layout``): ``extra`` the table's size and terrain, each unit's (id, player) and
    each model's (id, base, facing); ``models`` each model's (id, x, y, (id, unit, player,
    base, x, y, facing)) in the table's order; ``widest`` the largest circumradius of a base
    (inches)."""

    extra: Hashable
    models: tuple[tuple[str, float, float, tuple], ...]
    widest: float


_LAYOUTS: dict[int, tuple[Battlefield, _Layout]] = {}


def _layout(bf: Battlefield) -> _Layout:
    hit = _LAYOUTS.get(id(bf))
    if hit is not None and hit[0] is bf:
        return hit[1]
    if len(_LAYOUTS) > 256:
        _LAYOUTS.clear()
    owner = {u.id: u.player for u in bf.units}
    ms = list(bf.models())
    lay = _Layout((bf.table, bf.terrain, tuple((u.id, u.player) for u in bf.units),
                   tuple((x.id, x.base, x.facing_deg) for x in ms)),
                  tuple((x.id, x.x, x.y, (x.id, x.unit_id, owner[x.unit_id], x.base, x.x, x.y, x.facing_deg))
                        for x in ms),
                  max((_circum(x) for x in ms), default=0.0))
    _LAYOUTS[id(bf)] = (bf, lay)
    return lay


def _near(state: Battlefield, skip: str, at: tuple[float, float], reach: float,
          enemies_of: str | None = None) -> Hashable:
    """Every model of ``state`` but ``skip`` (only those not of player ``enemies_of``, when
    given) whose centre is within ``reach`` inches of ``at``, in the table's order: (id, unit,
    player, base, x, y, facing)."""
    ax, ay = at
    hypot = math.hypot
    return tuple(rec for mid, x, y, rec in _layout(state).models
                 if mid != skip and rec[2] != enemies_of and hypot(x - ax, y - ay) <= reach)


def _return_spot(state: Battlefield, m: Model, player: str, locked: tuple[str, ...],
                 prefer: tuple[float, float]) -> Spot | None:
    """``find_return_spot(state, m, player, locked, prefer=prefer)``, kept by the models near
    ``prefer`` when the spot found is engaged.

    The search takes the nearest candidate to ``prefer`` that is legal and engaged, so an
    engaged spot at distance d was chosen reading only the models whose bases come within
    the engagement or coherency range (the larger, and at least the tolerance) of a base
    centred within d of ``prefer``: centres within d + both bases' circumradii + that range
    + the tolerance (the candidates nearer than d are made round such models and weighed
    against such models; their order among themselves follows the table's order).  Another
    table with the same models, in the same order, within that reach of ``prefer`` - and the
    same rules, table edges and terrain, and the unit still (or still not) on the table -
    gives the same spot, so it is kept with that neighbourhood and found again without a
    search.  A spot not engaged, or none, was chosen after weighing every candidate on the
    table, so it is kept only by the whole table (``_return_plan``'s key)."""
    rules = state.rules
    head = (m.id, m.base, m.facing_deg, m.unit_id, player, locked, prefer, rules, state.table,
            state.terrain, any(x.id != m.id for x in state.unit(m.unit_id).models)
            if state.has_unit(m.unit_id) else False)
    widest = _layout(state).widest
    kept = _SPOTS.get(head)
    if kept is not None:
        for (reach, bound), spots in kept.items():
            if widest <= bound:
                spot = spots.get(_near(state, m.id, prefer, reach))
                if spot is not None:
                    return spot
    spot = find_return_spot(state, m, player, locked, prefer=prefer)
    if spot is None or not spot.engaged:
        return spot
    ranges = max(rules.engagement_range or 0.0, rules.coherency_range or 0.0, rules.tol)
    reach = (math.hypot(spot.x - prefer[0], spot.y - prefer[1]) + _circum(m) + widest + ranges
             + rules.tol + SPOT_SLACK)
    if len(_SPOTS) > POLICY_CACHE:
        _SPOTS.clear()
    _SPOTS.setdefault(head, {}).setdefault((reach, widest), {})[_near(state, m.id, prefer, reach)] = spot
    return spot


def return_models(state: Battlefield, challenges: tuple[GambitChallenge, ...]
                  ) -> tuple[Battlefield, list[Event | StepMark]]:
    """Every surviving set-aside model back on the table (Resolution Sub-phase): the new table
    and the ``returned`` events and the step.

    Each goes back to its unit: in coherency with at least one other model of
    it and engaged with an enemy unit wherever possible; if its unit is gone,
    in base contact with an enemy model of a unit it was locked with at the
    start of the Challenge Sub-phase.  A model with no legal spot stays where
    it stood before (the event says so).  Order (``RETURN_ORDER``): challenge
    by challenge, the Challenger then the Challenged, each nearest where it
    stood; once all are back, a model that is not engaged is placed again if
    an engaged spot is now open.  The ``returned`` events {model, at, engaged,
    unit_left} come after every model is placed, ``engaged`` read from the
    final table.  Where each model goes is worked out once per placement of the table and
    set of returning models (``_return_plan``; the odds walk and its sampled runs reach
    the same end of the Fight step by many roads, and tables that differ only in wounds
    lost or statuses share a plan: ``_places_key``).
    """
    events: list[Event | StepMark] = []
    pending = [(ch, m) for ch in challenges for m in ch.survivors]
    if not pending:
        return state, events
    key = (_places_key(state), (_layout(state).extra, state.rules),
           tuple((ch.combat, ch.challenger, ch.challenged, ch.origin, ch.locked_with, ch.unit_index,
                  tuple((mid, u.player, u.keywords, u.status) for mid, u in ch.units),
                  tuple((m.id, m.base, m.facing_deg) for m in ch.survivors))
                 for ch in challenges))
    places, notes, engaged = _cached("return", key, lambda: _return_plan(state, challenges, key))
    at_of, note_of, engaged_of = dict(places), dict(notes), dict(engaged)
    for ch, m in pending:
        state = _put_back(state, m.moved_to(*at_of[m.id]), dict(ch.units)[m.id], dict(ch.unit_index)[m.id])
    for ch, m in pending:
        at = state.model(m.id).at
        ev = {"model": m.id, "at": [round(at[0], 4), round(at[1], 4)], "engaged": engaged_of[m.id],
              "unit_left": len(state.unit(m.unit_id).models) > 1}
        if m.id in note_of:
            ev["note"] = note_of[m.id]
        events.append(_ev("returned", RULE_RESOLUTION, **ev, origin=list(dict(ch.origin)[m.id])))
    events.append(StepMark("Resolution: challengers return", RULE_RESOLUTION, state))
    return state, events


def _return_plan(state: Battlefield, challenges: tuple[GambitChallenge, ...], key: tuple | None = None
                 ) -> tuple[tuple[tuple[str, tuple[float, float]], ...], tuple[tuple[str, str], ...],
                            tuple[tuple[str, bool], ...]]:
    """Where ``return_models`` puts each surviving set-aside model: ((model id, (x, y)), ...) in
    inches, the notes of those with no legal spot, and whether each is engaged on the final
    table (the geometry: ``find_return_spot``, the snapshot).  The snapshots are the fight
    phase's, kept by placement (``fight_phase.context.geometry``: tables that differ only in
    wounds share one), derived from the table without the returning models
    (``moved_geometry``: only the returning models measured).  ``key`` is ``return_models``'
    key of the table and the returning models (None: nothing kept): the first placements
    are kept by it cut to the models placed so far, so plans whose returning models begin
    alike (the Challenger alone, the Challenger then the Challenged) place those once."""
    from tabletop.rules.fight_phase.context import geometry, moved_geometry
    pending = [(ch, m) for ch in challenges for m in ch.survivors]
    notes: dict[str, str] = {}
    aside = state
    for k, (ch, m) in enumerate(pending):
        def one(state: Battlefield = state, ch: GambitChallenge = ch, m: Model = m
                ) -> tuple[Battlefield, str | None]:
            return _return_one(state, ch, m, state.owner(m.id) if state.has_unit(m.unit_id)
                               else dict(ch.units)[m.id].player)
        if key is None:
            state, note = one()
        else:
            state, note = _cached("return_one", (key[0], key[1], _prefix(pending[:k + 1])), one)
        if note:
            notes[m.id] = note
    flags = _engaged_flags(aside, state, [m for _, m in pending])
    if all(engaged or mid in notes for mid, engaged in flags):
        return tuple((m.id, state.model(m.id).at) for _, m in pending), tuple(notes.items()), flags
    geom = geometry(moved_geometry(aside, state, {m.id for _, m in pending}))
    for ch, m in pending:
        if m.id in notes or geom.model_engaged(m.id):
            continue
        here = state.model(m.id)
        spot = find_return_spot(state, here, state.owner(m.id), dict(ch.locked_with).get(m.id, ()),
                                prefer=dict(ch.origin)[m.id])
        if spot is not None and spot.engaged and spot.at != here.at:
            before, state = state, state.with_models([here.moved_to(*spot.at)])
            geom = geometry(moved_geometry(before, state, {m.id}))
    return (tuple((m.id, state.model(m.id).at) for _, m in pending), tuple(notes.items()),
            tuple((m.id, bool(geom.model_engaged(m.id))) for _, m in pending))


_FLAGS: dict[Hashable, tuple[tuple[str, bool], ...]] = {}
FLAGS_SLACK = 1e-3      # inches added to the reach of an engagement read (above the snapshot's EPS)


def _engaged_flags(aside: Battlefield, state: Battlefield, models: list[Model]
                   ) -> tuple[tuple[str, bool], ...]:
    """Whether each of ``models`` (just placed on ``state``, the table ``aside`` without them)
    is engaged on ``state``: ((model id, engaged), ...), from the fight phase's snapshot
    (``moved_geometry``), kept by each model's neighbourhood.  A model is engaged when an enemy
    base lies within the engagement range of its own (a gap read pair by pair), so only the
    enemy models whose centres lie within both bases' circumradii + that range + the
    tolerance of it are read: a table with the same such models round each returning model
    gives the same answer without a snapshot (its own side's casualties change nothing)."""
    from tabletop.rules.fight_phase.context import geometry, moved_geometry
    rules = state.rules
    widest = _layout(state).widest
    rng = max(rules.engagement_range or 0.0, 0.0) + rules.tol + FLAGS_SLACK
    key = (rules, widest, tuple(
        (m.id, state.owner(m.id), m.base, m.facing_deg, state.model(m.id).at,
         _near(state, m.id, state.model(m.id).at, _circum(m) + widest + rng, state.owner(m.id)))
        for m in models))
    flags = _FLAGS.get(key)
    if flags is None:
        geom = geometry(moved_geometry(aside, state, {m.id for m in models}))
        flags = tuple((m.id, bool(geom.model_engaged(m.id))) for m in models)
        if len(_FLAGS) > POLICY_CACHE:
            _FLAGS.clear()
        _FLAGS[key] = flags
    return flags


def _prefix(pending: list[tuple[GambitChallenge, Model]]) -> Hashable:
    """What placing the models ``pending`` one after another reads of them and their
    challenges (with the table: ``return_models``' key)."""
    return tuple((ch.combat, ch.challenger, ch.challenged, ch.origin, ch.locked_with, ch.unit_index,
                  tuple((mid, u.player, u.keywords, u.status) for mid, u in ch.units),
                  m.id, m.base, m.facing_deg) for ch, m in pending)


def _resolution(state: PhaseState, next_row: str) -> Transition:
    m = _memo(state)
    if m is None or not m.challenges:
        return goto(state, next_row)
    bf, events = return_models(state.battlefield, m.challenges)
    events.append(_ev("challenge_points", RULE_RESOLUTION, points=m.points(),
                      text="combat resolution points earned in the Challenge Sub-phase"))
    return goto(replace(state, battlefield=bf), next_row, tuple(events))


def resolution_rows(next_row: str) -> list[Row]:
    """The Resolution Sub-phase's row, entered at ``"challenge_resolution"``, ending with
    ``goto(next_row)``: the set-aside models return, then each player's points from challenges."""
    return [Row("challenge_resolution", "Resolution: challengers return", RULE_RESOLUTION,
                lambda s: _resolution(s, next_row))]


def end_phase(state: Battlefield) -> tuple[Battlefield, list[Event]]:
    """Remove every Disgraced status, without a test (``DISGRACED_ENDS``; ``RULE_END``): the
    new table and a ``status_removed`` event {model, status, reason} per model."""
    changed, events = [], []
    for m in state.models():
        if DISGRACED in m.status:
            changed.append(_upd(m, status=tuple(s for s in m.status if s != DISGRACED),
                                   written=m.written | {"status"}))
            events.append(_ev("status_removed", RULE_END, model=m.id, status=DISGRACED,
                              reason="removed in the End Phase of the same Player Turn, without a test: "
                                     "the fight run ends the phase, the End Phase follows"))
    return (state.with_models(changed) if changed else state), events


# ------------------------------------------------------------------ odds and the default policy
@lru_cache(maxsize=1)
def _machine() -> Machine:
    return Machine(challenge_rows(END) + resolution_rows(END), "challenge")


def machine(next_row: str = END) -> Machine:
    """A machine of the sub-phase's rows alone (the Challenge Sub-phase, then nothing)."""
    return _machine() if next_row == END else Machine(challenge_rows(next_row), "challenge")


def duel_start(bf: Battlefield, combat: tuple[str, ...], issuer: str, challenger: str, challenged: str
               ) -> PhaseState:
    """The state of an accepted challenge as its first Face-Off begins: the pair set aside,
    outside support counted from the table without them (``GambitOnly`` memo)."""
    after, ch = set_aside(bf, combat, challenger, challenged, (issuer, bf.other_player(issuer)))
    memo = ChallengeMemo(combats=(tuple(combat),), issuer=issuer, challenger=challenger,
                         fought=frozenset({challenger, challenged}), challenges=(ch,))
    state = PhaseState(after, GambitOnly(memo), "gambit_support")
    t = _support(state)
    return t.state


@dataclass(frozen=True)
class PairOdds:
    """One gambit pair's odds for one round and its Glory Step: win chance and expected points
    by player, and the draw chance (exact ``Fraction``s).  ``outcomes`` is the walk's own
    distribution ``{(winner or None, points): p}`` the other figures are summed from
    (gambit-challenge.txt, Glory Step): ``points_dist`` and ``points_at_least`` read it."""

    gambits: tuple[tuple[str, str], ...]
    win: dict[str, Fraction]
    draw: Fraction
    points: dict[str, Fraction]
    states: int = 0
    outcomes: dict[tuple[str | None, int], Fraction] = field(default_factory=dict)

    def value(self, p: str) -> tuple[Fraction, Fraction]:
        """``POLICY_VALUE`` for ``p``: (points difference, win chance difference)."""
        o = next(q for q in self.win if q != p)
        return (self.points[p] - self.points[o], self.win[p] - self.win[o])

    def points_dist(self, p: str) -> dict[int, Fraction]:
        """Player ``p``'s combat resolution points from this round's Glory Step
        (gambit-challenge.txt, Glory Step) as ``{k: P(p scores exactly k)}``, k ascending,
        only the k with a chance; exact ``Fraction``s summing to 1.  ``p`` scores 0 when it
        loses, draws or withdraws, the winner's ``points`` when it wins; its mean is
        ``points[p]`` exactly.  Raises ``KeyError`` for a player not in the pair."""
        if p not in self.win:
            raise KeyError(p)
        return dict(sorted(counts(self.outcomes, lambda o: o[1] if o[0] == p else 0).items()))

    def points_at_least(self, p: str) -> dict[int, Fraction]:
        """``{k: P(p scores at least k points)}`` for ``k = 0..`` the most ``p`` can score this
        round (``points_dist``'s upper tail; ``k = 0`` is the whole distribution, 1), exact and
        non-increasing.  Raises ``KeyError`` for a player not in the pair."""
        dist = self.points_dist(p)
        return {0: sum(dist.values(), Fraction(0)), **at_least(dist)}


def _outcome(state: PhaseState) -> Hashable:
    ch = _memo(state).challenges[-1]
    return (ch.winner, ch.points)


_PAIRS: dict[Hashable, PairOdds] = {}
_CHOICES: dict[Hashable, Any] = {}


def situation(state: PhaseState) -> Hashable:
    """What the default policy's searches from ``state`` (a round's Face-Off) depend on, hashable:
    the row, what is pending, the sub-phase's record as compared (``ChallengeMemo.key``: the
    duel's wounds, support, advantage, banked bonus, Taunts, Wounds caused, round), the
    duellists as read when set aside (profiles, weapons, statuses: ``GambitChallenge.base``),
    the map's ``[rules]`` and the Active Player.  A round's rows read nothing else of the table
    (outside support is counted into the record before the first Face-Off), so the searches
    made for the odds table before the pile-in and those made in the phase after it are shared
    when the duel and its support are the same.  The policy caches (``POLICY_CACHE``) are keyed
    by it: a search is done once per distinct situation, however many runs or walked states
    meet it."""
    bf = state.battlefield
    return (state.cursor, state.pending, _memo(state).key(), _duel(state).base, bf.rules,
            bf.active_player)


def _table_extra(bf: Battlefield) -> Hashable:
    """What setting a pair aside reads of the table beyond ``_table_key``, worked out once per
    table: each unit's (id, player, keywords, charged, statuses, facing), each model's (id,
    base, facing, keywords, name, role, profile and weapons as written), the table's size and
    its terrain."""
    hit = _EXTRA.get(id(bf))
    if hit is not None and hit[0] is bf:
        return hit[1]
    if len(_EXTRA) > 256:
        _EXTRA.clear()
    k = (bf.table, bf.terrain,
         tuple((u.id, u.player, u.keywords, u.charged, u.status, u.facing_deg) for u in bf.units),
         tuple((m.id, m.base, m.facing_deg, m.keywords, m.name, m.role, repr(m.profile),
                repr(m.weapons)) for m in bf.models()))
    _EXTRA[id(bf)] = (bf, k)
    return k


_EXTRA: dict[int, tuple[Battlefield, Hashable]] = {}


def _cached(kind: str, key: Hashable, work: Callable[[], Any]) -> Any:
    """``work()``, done once per ``(kind, key)`` (at most ``POLICY_CACHE`` kept)."""
    k = (kind, key)
    hit = _CHOICES.get(k, _CHOICES)
    if hit is not _CHOICES:
        return hit
    value = work()
    if len(_CHOICES) > POLICY_CACHE:
        _CHOICES.clear()
    _CHOICES[k] = value
    return value


def round_reads(ch: GambitChallenge, active: str) -> GambitChallenge:
    """``ch`` (a duel as a round's Face-Off begins) with only what that round reads of its
    number, its Challenge Advantage and the last gambits: the round a pair's odds are walked
    from (``pair_odds``), so rounds that play alike share one walk.

    A round reads its number and the advantage only for who chooses first and whose gambit
    takes precedence (``first_chooser``, ``precedence``; the Focus Roll then sets the advantage
    anew), and its number for ``HARD_ROUND_LIMIT``; the last gambits (``last``) are replaced at
    the reply before the Glory Step reads them.  So a round whose first chooser is the
    Challenger's player and whose precedence is the Active Player's plays as round 1 with no
    advantage, and any later round below the limit plays as round 2 with the same advantage.
    Everything else (wounds, support, Guard Up's bank, Taunts, Wounds caused) is kept.
    Raises nothing."""
    no = ch.round_no + 1
    first = first_chooser(no, ch.players[0], ch.advantage)
    if (first, precedence(ch.advantage, active)) == (ch.players[0], active):
        round_no, advantage = 0, None
    elif 2 <= no < HARD_ROUND_LIMIT:
        round_no, advantage = 1, ch.advantage
    else:
        round_no, advantage = ch.round_no, ch.advantage
    if (round_no, advantage, ch.last) == (ch.round_no, ch.advantage, ()):
        return ch
    return _upd(ch, round_no=round_no, advantage=advantage, last=())


def pair_odds(start: PhaseState, gambits: dict[str, str]) -> PairOdds:
    """Exact odds of one round from ``start`` (a state at ``gambit_face_off``) with these
    gambits, walking these rows (``walk.exact``): the gambits scripted, no prolonging
    (``ODDS_ROUNDS``), the map's scripted ``weapon`` answers, every other question by the
    default policy (weapons, Withdraw).
    The walk starts from ``round_reads`` of the duel and is kept by what it reads
    (``situation`` of that start and the gambits), so the Face-Offs of a prolonged duel that
    play alike (round 1, and a later round where the same player chooses first and takes
    precedence) are walked once."""
    ch = round_reads(_duel(start), start.battlefield.active_player)
    # one duel's round depends on nothing of the sub-phase but the duel and the table
    single = ChallengeMemo(combats=(ch.combat,), issuer=ch.players[0], challenger=ch.challenger,
                           fought=frozenset(ch.by_player.values()), challenges=(ch,))
    begin = PhaseState(start.battlefield, _with(start, single), "gambit_face_off")
    # the map's own weapon choices answer the Focus Step's weapon question as in the fight
    # (re-audit 9: the odds table used the default weapon where the map scripted another)
    weapons = [d for d in start.battlefield.decisions if d.choice == "weapon"]
    k = (situation(begin), tuple(sorted(gambits.items())),
         tuple((d.player, str(d.value)) for d in weapons))
    hit = _PAIRS.get(k)
    if hit is not None:
        return hit
    first = first_chooser(ch.round_no + 1, ch.players[0], ch.advantage)
    second = _other(ch.players, first)
    script = [Decision(first, "gambit", gambits[first])]
    if gambit(gambits[first]).bans:
        ban = next(n for n in GAMBIT_NAMES if n not in (gambits[first], gambits[second]))
        script.append(Decision(first, "feint", ban))
    script.append(Decision(second, "gambit", gambits[second]))
    script += weapons
    head = walk.exact(_head_machine(), begin, outcome=_cut, key=round_key, scripted=script)
    dist: dict[tuple[str | None, int], Fraction] = {}
    states = head.states or 0
    for cut, p in head.dist.items():
        if not isinstance(cut, _Cut):                  # a round over before its Strike Step
            dist[cut] = dist.get(cut, Fraction(0)) + p
            continue
        tail = _strike_odds(cut)
        states += tail.states or 0
        for o, q in tail.dist.items():
            dist[o] = dist.get(o, Fraction(0)) + p * q
    win = {p: Fraction(0) for p in ch.players}
    pts = {p: Fraction(0) for p in ch.players}
    draw = Fraction(0)
    for (winner, points), p in dist.items():
        if winner is None:
            draw += p
        else:
            win[winner] += p
            pts[winner] += p * points
    res = PairOdds(tuple((p, gambits[p]) for p in ch.players), win, draw, pts, states, dist)
    if len(_PAIRS) > POLICY_CACHE:
        _PAIRS.clear()
    _PAIRS[k] = res
    return res


STRIKE_SPLIT = "gambit_strike"
_STRIKES: dict[Hashable, walk.Odds] = {}


@lru_cache(maxsize=1)
def _head_machine() -> Machine:
    """``_machine`` with its Strike row cut: a round's walk (``pair_odds``) stops as the
    Strike Step begins (``STRIKE_SPLIT``), the Face-Off and Focus walked, nothing struck."""
    rows = [Row(r.name, r.title, r.rule, lambda s: goto(s, END)) if r.name == STRIKE_SPLIT else r
            for r in challenge_rows(END) + resolution_rows(END)]
    return Machine(rows, "challenge")


@dataclass(frozen=True)
class _Cut:
    """A round's walk cut where its Strike Step begins: ``key`` what the rest of the round
    reads (``strike_key``; equal cuts compare equal, so the head walk's outcomes add their
    chances) and one ``state`` that reached it (not compared)."""

    key: Hashable
    state: PhaseState = field(compare=False)


def _cut(state: PhaseState) -> Hashable:
    ch = _duel(state)
    if ch.done or ch.round is None:
        return _outcome(state)
    return _Cut(strike_key(state), state)


def _reads(chosen: tuple[tuple[str, str], ...]) -> tuple:
    """Of each chosen gambit, what the Strike and Glory Steps read: Guard Up's bank per enemy
    miss, Test the Foe's advantage next round, Withdraw's Glory Step question."""
    out = []
    for p, name in chosen:
        g = gambit(name)
        out.append((p, g.focus_per_enemy_miss, g.advantage_next, g.may_withdraw))
    return tuple(out)


def strike_key(state: PhaseState) -> Hashable:
    """What a round read from the start of its Strike Step on (``gambit_strike`` to the Glory
    Step, no prolonging) depends on, hashable: ``state_key`` with the round's Face-Off and
    Focus reduced to what the Strike and Glory rows read of them - the Focus winner (who
    strikes first), the strike profiles' characteristics (their notes feed only the events),
    the blows struck, and of each gambit (this round's and ``last``) ``_reads``; the weapons,
    Flurry's D3, the gambits' names and the precedence were spent making the profiles.  So
    two gambit pairs whose rounds reach the same Strike Step share its walk (``pair_odds``)."""
    m = _memo(state)
    ch = m.challenges[-1]
    rnd = ch.round
    assert rnd is not None   # cut inside a round
    duel = (ch.combat, ch.challenger, ch.challenged, ch.disgraced,
            tuple((mid, x.wounds_lost, x.status) for mid, x in ch.models), ch.support,
            ch.advantage, ch.banked, ch.taunts, ch.caused, ch.round_no,
            (rnd.no, rnd.winner, _reads(rnd.chosen),
             tuple((p, x.ws, x.attacks, x.strength, x.ap, x.damage) for p, x in rnd.profiles),
             tuple((a, misses, take) for a, _, misses, take in rnd.struck)),
            _reads(ch.last), ch.removed, ch.withdraw_turn, ch.done, ch.winner, ch.points,
            ch.attacks_from, ch.base)
    bf = state.battlefield
    return (state.cursor, state.pending, m.combats, m.index, m.issue_turn, m.issuer, m.challenger,
            m.fought, tuple(c.key() for c in m.challenges[:-1]), duel, _table_key(bf), bf.rules,
            bf.active_player)


_GLORY_ROWS = ("gambit_prolong", "gambit_glory")


def _strike_state_key(state: PhaseState) -> Hashable:
    """The Strike Step walk's key (``_strike_odds``): ``state_key``, but once the blows are
    struck only what the rest of the round reads.  There the walk's script answers the prolong
    question no (``ODDS_ROUNDS``), and the Glory Step reads of the duel only who was removed,
    the Wounds caused, Taunt and Bait's count, Withdraw among the last gambits, where its
    Withdraw questions are, and the duellists' base Wounds, Paragon and Command (``glory``):
    rounds that differ only in the wounds rolled past those merge.  A finished round is its
    outcome."""
    m = _memo(state)
    ch = m.challenges[-1]
    if state.cursor == END and state.pending is None:
        return (END, ch.winner, ch.points, ch.done)
    if state.cursor not in _GLORY_ROWS:
        return round_key(state)
    return (state.cursor, state.pending, state.used, m.combats, m.index, ch.players, ch.challenger,
            ch.challenged, _reads(ch.last), ch.removed, ch.caused, ch.taunts, ch.withdraw_turn,
            tuple((p, d.w, d.paragon, d.command) for p, d in ch.base))


def _strike_odds(cut: _Cut) -> walk.Odds:
    """The exact distribution of (winner, points) from a cut round's Strike Step (its rows
    from ``STRIKE_SPLIT`` on, no prolonging), walked once per ``strike_key``."""
    hit = _STRIKES.get(cut.key)
    if hit is not None:
        return hit
    ch = _duel(cut.state)
    begin = evolve(cut.state, cursor=STRIKE_SPLIT, pending=None, used=frozenset())
    o = walk.exact(_machine(), begin, outcome=_outcome, key=_strike_state_key,
                   scripted=[Decision(p, "prolong", False) for p in ch.players])
    if len(_STRIKES) > POLICY_CACHE:
        _STRIKES.clear()
    _STRIKES[cut.key] = o
    return o


def best_gambit(start: PhaseState, player: str, options: list[str], chosen: dict[str, str],
                banned: list[str]) -> str:
    """The default policy's gambit (``POLICY_VALUE``): the best reply to the gambit seen, or,
    choosing first, the gambit whose worst case over the replies still allowed is best.
    Worked out once per situation (``situation``, the player and the choices so far)."""
    key = (situation(start), player, tuple(options), tuple(sorted(chosen.items())), tuple(banned))
    return _cached("gambit", key, lambda: _best_gambit(start, player, options, chosen, banned))


def _best_gambit(start: PhaseState, player: str, options: list[str], chosen: dict[str, str],
                 banned: list[str]) -> str:
    other = _other(_duel(start).players, player)
    if other in chosen:
        return max(options, key=lambda g: pair_odds(start, {player: g, other: chosen[other]}).value(player))

    def worst(g: str) -> tuple:
        if gambit(g).bans:
            return max(_feint_worst(start, player, ban) for ban in GAMBIT_NAMES if ban != g)
        return min(pair_odds(start, {player: g, other: r}).value(player) for r in allowed(False, [g], []))

    return max(options, key=worst)


def _feint_worst(start: PhaseState, player: str, ban: str) -> tuple:
    other = _other(_duel(start).players, player)
    return min(pair_odds(start, {player: FEINT, other: r}).value(player) for r in allowed(False, [FEINT], [ban]))


def best_ban(start: PhaseState, player: str, options: list[str]) -> str:
    """The gambit Feint and Riposte names: the one whose absence helps ``player`` most (once
    per situation)."""
    return _cached("ban", (situation(start), player, tuple(options)),
                   lambda: max(options, key=lambda ban: _feint_worst(start, player, ban)))


def policy_pair(start: PhaseState) -> tuple[PairOdds, list[str]]:
    """The pair the default policy plays from ``start`` (a round's Face-Off) and the gambit
    Feint and Riposte names, if any (once per situation)."""
    best, banned = _cached("pair", situation(start), lambda: _policy_pair(start))
    return best, list(banned)


def _policy_pair(start: PhaseState) -> tuple[PairOdds, list[str]]:
    ch = _duel(start)
    first = first_chooser(ch.round_no + 1, ch.players[0], ch.advantage)
    second = _other(ch.players, first)
    g1 = best_gambit(start, first, allowed(True, [], []), {}, [])
    banned = [best_ban(start, first, [n for n in GAMBIT_NAMES if n != g1])] if gambit(g1).bans else []
    g2 = best_gambit(start, second, allowed(False, [g1], banned), {first: g1}, banned)
    return pair_odds(start, {first: g1, second: g2}), banned


def expected_wounds(att: Duellist, wp: Weapon, dfn: Duellist, dfn_ws: int) -> Fraction:
    """Expected wounds one Strike Step of ``att`` with ``wp`` removes (``WEAPON_POLICY``)."""
    prof = StrikeProfile(att.player, att.ws, att.attacks_with(wp), att.strength_with(wp), wp.ap, wp.damage)
    return prof.attacks * unsaved_chance(prof, dfn_ws, dfn) * min(prof.damage, max(1, dfn.wounds_left))


def best_weapon(att: Duellist, dfn: Duellist) -> str:
    """The default weapon (``WEAPON_POLICY``)."""
    return max(att.weapons, key=lambda wp: expected_wounds(att, wp, dfn, dfn.ws)).name


def duel_value(bf: Battlefield, combat: tuple[str, ...], issuer: str, challenger: str, acceptor: str) -> Fraction:
    """What a challenge of ``challenger`` accepted by ``acceptor`` is worth to ``issuer``:
    the default policy's pair's expected points, its own minus the other's.  Worked out once
    per table and pair (the Declare step's issue and accept defaults ask it at every run)."""
    key = (_table_key(bf), _table_extra(bf), bf.rules, bf.active_player, tuple(combat), issuer,
           challenger, acceptor)
    return _cached("duel", key, lambda: _duel_value(bf, combat, issuer, challenger, acceptor))


def _duel_value(bf: Battlefield, combat: tuple[str, ...], issuer: str, challenger: str, acceptor: str
                ) -> Fraction:
    start = duel_start(bf, combat, issuer, challenger, acceptor)
    best, _ = policy_pair(start)
    other = bf.other_player(issuer)
    return best.points[issuer] - best.points[other]


def odds_summary(start: PhaseState) -> dict[str, Any]:
    """JSON-ready: every gambit pair the Face-Off allows (the first chooser choosing first) and
    the pair the default policy plays, for one round (``ODDS_ROUNDS``), exact."""
    ch = _duel(start)
    first = first_chooser(ch.round_no + 1, ch.players[0], ch.advantage)
    second = _other(ch.players, first)
    rows = [pair_odds(start, {first: g1, second: g2})
            for g1 in allowed(True, [], []) for g2 in allowed(False, [g1], [])]
    best, banned = policy_pair(start)
    return {"first": first, "second": second, "rounds": ODDS_ROUNDS,
            "pairs": [_row(r) for r in rows], "policy": {**_row(best), "banned": banned}}


def _row(r: PairOdds) -> dict[str, Any]:
    row: dict[str, Any] = {
        "gambits": {p: g for p, g in r.gambits}, "win": {p: float(v) for p, v in r.win.items()},
        "draw": float(r.draw), "expected_points": {p: float(v) for p, v in r.points.items()},
        "points_dist": {}, "points_dist_exact": {}, "points_at_least": {}, "points_at_least_exact": {}}
    for p in r.win:
        dist = r.points_dist(p)
        row["points_dist"][p] = {str(k): float(v) for k, v in dist.items()}
        row["points_dist_exact"][p] = {str(k): str(v) for k, v in dist.items()}
        for key, tail in at_least_keys("points", dist, exact=True).items():   # k = 1.. (odds_summary)
            row[key][p] = tail
    return row
