"""The Challenge Sub-phase of the fight phase (gambit-challenge.txt), map option ``challenges = "gambit"``.

For each combat (the geometry's engagement groups, in table order):

1. Declare: the Active Player may issue a challenge, then the reactive
   player (named default ``ISSUE_ORDER``; the text says only "a player").
   The opponent accepts with an eligible model or refuses; on a refusal the
   challenger's player gives the Disgraced status to one enemy model that
   could have accepted (halved WS and Ld for the phase; its unit counts as
   under a status; removed in the End phase: ``end_phase``).  Accepted: the
   Challenger and the Challenged are set aside together, in base contact,
   out of play - they are taken off the state, so the Fight step neither
   sees nor targets them.
2. Face-Off (``gambits.face_off``).  3. Focus: weapons (reactive player
   first), Focus Rolls with outside support counted from the table
   (``outside_support``), ties re-rolled, Challenge Advantage.  4. Strike
   (``strike.py``).  On a draw the advantage holder may prolong (repeat 2-4).
   5. Glory: the winner's combat resolution points (``strike.glory``).

Resolution (``return_models``, after the Fight step): every set-aside model
still alive goes back to its unit, in coherency and engaged where possible,
or into base contact with an enemy unit it was locked with if its unit is
gone - spots found by ``geometry.placement.find_return_spot``.

Disgraced (``DISGRACED_READS``): the status is written on the model
(``status = ["disgraced"]``); its halved WS and Ld apply wherever a WS or Ld
is read for the rest of the phase, all through ``characters.as_read``: a
later challenge's Hit Tests and Focus (``duellist.py``), the default
policy's choice of whom to disgrace, and the fight-phase hit roll when the
model fights in the Fight step (``fight_phase.profiles.melee_weapon``, named
default ``DISGRACED_HIT_ROLL`` there).  The fight-phase ruleset has no
Leadership test, so halved Ld is read only by the challenge code.  Its unit
counts as under a status: no outside support from it, and a Combat
Initiative of 1 for every model of it, the Disgraced one included, in its
Focus Roll (``characters.combat_initiative_fixed``); a model already
Disgraced is not given the status twice.  How long it lasts (named default ``DISGRACED_ENDS``): the
text removes it "in the End Phase of the same Player Turn"; a ``fight`` run
resolves the Fight phase, and the next run on the map it writes is a later
phase, after this turn's End Phase.  So the run's last step (``end_phase``,
after 12.09) removes it with a ``status_removed`` event naming the clause, and
``-o`` never writes it.  A ``disgraced`` status read from a map is taken as
gained earlier in this phase: it applies during the run and is removed at
its end the same way.

Named defaults: ``ISSUE_ORDER``; ``PROLONG_LIMIT`` (the default policy does
not prolong past this many rounds) and ``HARD_ROUND_LIMIT`` (the text sets
no limit; a scripted run that keeps prolonging ends here with an event);
``ISSUE_POLICY``/``ACCEPT_POLICY``/``DISGRACE_POLICY`` (below);
``RESOLUTION_AFTER = "fight step"
RETURN_ORDER = "challenger then challenged, nearest where each stood; one not engaged is placed again once all are back"`` (models return after 12.04 and before
consolidation).  Eligibility: ``characters.GAMBIT_ELIGIBILITY``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from tabletop.board.state import Battlefield, Model, Unit
from tabletop.geometry import snapshot
from tabletop.geometry.placement import AsideBox, aside_box, find_return_spot
from tabletop.rules.challenges import odds
from tabletop.rules.challenges.characters import (
    DISGRACED,
    GAMBIT_ELIGIBILITY,
    as_read,
    can_fight_challenges,
    characteristic,
    has_status,
    not_a_candidate,
    on_table,
)
from tabletop.rules.challenges.duellist import Duellist, duellist
from tabletop.rules.challenges.gambits import GAMBIT_NAMES, face_off, gambit
from tabletop.rules.challenges.strike import (
    RULE_FOCUS,
    RULE_GLORY,
    RULE_STRIKE,
    focus_modifiers,
    focus_step,
    glory,
    strike_profiles,
    strike_step,
)

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


@dataclass
class GambitChallenge:
    """One challenge: who, the rounds, the result, and what the Resolution needs."""

    combat: tuple[str, ...]
    challenger: str
    challenged: str | None
    players: tuple[str, str]
    disgraced: str | None = None
    models: dict[str, Model] = field(default_factory=dict)      # set-aside copies, wounds updated
    units: dict[str, Unit] = field(default_factory=dict)        # their units as at the start
    unit_index: dict[str, int] = field(default_factory=dict)
    origin: dict[str, tuple[float, float]] = field(default_factory=dict)
    locked_with: dict[str, tuple[str, ...]] = field(default_factory=dict)
    aside: dict[str, tuple[float, float]] = field(default_factory=dict)
    aside_box: tuple[float, float, float, float] | None = None
    rounds: list[dict[str, Any]] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    winner: str | None = None
    points: int = 0

    @property
    def survivors(self) -> list[Model]:
        return [m for mid, m in self.models.items() if mid not in self.removed]


@dataclass
class ChallengeSubphase:
    """The whole Challenge Sub-phase: its challenges and the points each player scored."""

    challenges: list[GambitChallenge] = field(default_factory=list)
    fought: set[str] = field(default_factory=set)

    def points(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for c in self.challenges:
            if c.winner is not None:
                out[c.winner] = out.get(c.winner, 0) + c.points
        return out

    @property
    def set_aside(self) -> list[Model]:
        return [m for c in self.challenges for m in c.survivors]


# ------------------------------------------------------------------ who, from the table
def eligible(state: Battlefield, combat: list[str] | tuple[str, ...], player: str,
             fought: set[str] = frozenset()) -> list[str]:
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


def _aside_spots(state: Battlefield, combat, a: Model, b: Model, taken=()) -> AsideBox:
    """Where frames draw the set-aside pair (not on the table's state): in base contact inside a
    box beside the combat over no base and no other pair's box (``geometry.placement.aside_box``)."""
    return aside_box(state, combat, [a, b], skip=(a.id, b.id), avoid=taken)


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


# ------------------------------------------------------------------ policies
def _setup(state: Battlefield, players: tuple[str, str], models: dict[str, Model], combat,
           **kw) -> odds.DuelSetup:
    ds = {p: duellist(models[p], p, state.unit(models[p].unit_id)) for p in players}
    wps = {p: ds[p].weapon(odds.best_weapon(ds[p], ds[next(q for q in players if q != p)])) for p in players}
    aside = state.without_models([m.id for m in models.values()])
    g = snapshot(aside)
    support = {p: outside_support(aside, combat, p, g)[0] for p in players}
    return odds.DuelSetup(players, ds, wps, support=support, active=state.active_player, **kw)


def _duel_value(state, combat, issuer, c: str, a: str) -> Fraction:
    other = state.owner(a)
    setup = _setup(state, (issuer, other), {issuer: state.model(c), other: state.model(a)}, combat)
    best, _ = odds.policy_pair(setup)
    return best.points[issuer] - best.points[other]


# ------------------------------------------------------------------ the sub-phase
def challenge_subphase(state: Battlefield, dice, decisions, log) -> tuple[Battlefield, ChallengeSubphase]:
    """Run the Challenge Sub-phase on every combat of ``state``.

    Returns the state with the surviving duellists set aside (taken off the
    table until ``return_models``), casualties gone and Disgraced statuses
    applied, and the record of every challenge.  Does nothing unless
    ``state.rules.challenges == "gambit"``.
    """
    sub = ChallengeSubphase()
    if state.rules.challenges != "gambit":
        return state, sub
    for combat in snapshot(state).engagements:
        state = _combat(state, tuple(combat), dice, decisions, log, sub)
    return state, sub


def _combat(state, combat, dice, decisions, log, sub: ChallengeSubphase) -> Battlefield:
    active = state.active_player
    reactive = state.other_player(active)
    issuer = challenger = None
    for who in (active, reactive):
        other = state.other_player(who)
        mine = eligible(state, combat, who, sub.fought)
        theirs = eligible(state, combat, other, sub.fought)
        if not mine or not theirs:
            continue
        vals = {c: min(_duel_value(state, combat, who, c, a) for a in theirs) for c in mine}
        best = max(mine, key=lambda c: vals[c])
        default = best if vals[best] >= 0 else "none"
        value = decisions.choose(who, "issue_challenge", mine + ["none"], default=default,
                                 rule=RULE_DECLARE, context={"combat": list(combat)},
                                 why_not=lambda v, w=who: _why_not_eligible(state, combat, w, v, sub.fought))
        if value != "none":
            issuer, challenger = who, value
            break
    if challenger is None:
        return state
    other = state.other_player(issuer)
    theirs = eligible(state, combat, other, sub.fought)
    log.emit("challenge_issued", RULE_DECLARE, player=issuer, challenger=challenger, combat=list(combat))
    vals = {a: _duel_value(state, combat, issuer, challenger, a) for a in theirs}
    best = min(theirs, key=lambda a: vals[a])
    default = best if vals[best] <= REFUSE_COST else "refuse"
    answer = decisions.choose(other, "accept_challenge", theirs + ["refuse"], default=default,
                              rule=RULE_DECLARE,
                              why_not=lambda v: _why_not_eligible(state, combat, other, v, sub.fought))
    ch = GambitChallenge(combat, challenger, None if answer == "refuse" else answer, (issuer, other))
    sub.challenges.append(ch)
    if answer == "refuse":
        dflt = max(theirs, key=lambda m: (_read(state.model(m), "Ld"), _read(state.model(m), "WS")))
        who = decisions.choose(issuer, "disgrace", theirs, default=dflt, rule=RULE_DISGRACED,
                               why_not=lambda v: ("it could not have accepted: "
                                                  + _why_not_eligible(state, combat, other, v, sub.fought)))
        m = state.model(who)
        if DISGRACED not in m.status:
            state = state.with_models([replace(m, status=m.status + (DISGRACED,), written=m.written | {"status"})])
        ch.disgraced = who
        prof = state.model(who).profile
        log.emit("challenge_refused", RULE_DISGRACED, player=other, disgraced=who,
                 **{k: _read(state.model(who), k) for k in ("WS", "Ld") if k in prof})
        log.step("Challenge refused: Disgraced", RULE_DISGRACED, state,
                 challenge={"challenger": challenger, "combat": list(combat)}, disgraced=[who],
                 focus=[list(state.model(x).at) for x in (challenger, who)])
        return state
    log.emit("challenge_accepted", RULE_DECLARE, player=other, challenged=answer)
    geom = snapshot(state)
    a, b = state.model(challenger), state.model(answer)
    for m in (a, b):
        ch.models[m.id] = m
        ch.origin[m.id] = m.at
        order = [u.id for u in state.units]
        ch.units[m.id] = state.unit(m.unit_id)
        ch.unit_index[m.id] = order.index(m.unit_id)
        ch.locked_with[m.id] = tuple(u for u in geom.engaged_units(m.unit_id) if u in combat)
        sub.fought.add(m.id)
    spot = _aside_spots(state, combat, a, b, [c.aside_box for c in sub.challenges if c.aside_box])
    ch.aside, ch.aside_box = dict(spot.centres), spot.box
    state = state.without_models([a.id, b.id])
    log.emit("set_aside", RULE_DECLARE, models=[a.id, b.id], combat=list(combat))
    log.step("Challenge: set aside", RULE_DECLARE, state, **_draw_challenge(ch, state))
    _fight(state, ch, dice, decisions, log)
    return state


def _why_not_eligible(state: Battlefield, combat, player: str, value: Any, fought) -> str:
    """The exact reason ``value`` is not an eligible model of ``player`` in ``combat`` (``GAMBIT_ELIGIBILITY``)."""
    return (not_a_candidate(state, value, player, combat, fought=fought, vehicles_barred=True)
            or f"{value!r} is not eligible ({'; '.join(GAMBIT_ELIGIBILITY)})")


def _draw_challenge(ch: GambitChallenge, state: Battlefield | None = None) -> dict[str, Any]:
    """Draw keys every challenge step carries: ``challenge`` (the pair set aside beside the
    combat: models, where to draw them, who was removed) and ``focus`` (points to keep in view)."""
    pts = [list(p) for p in ch.aside.values()] + [list(p) for p in ch.origin.values()]
    if ch.aside_box is not None:
        x0, y0, x1, y1 = ch.aside_box
        pts += [[x0, y0], [x1, y1]]
    if state is not None:
        pts += [[m.x, m.y] for uid in ch.combat if state.has_unit(uid) for m in state.unit(uid).models]
    return {"challenge": {"challenger": ch.challenger, "challenged": ch.challenged,
                          "combat": list(ch.combat), "models": dict(ch.models), "aside": dict(ch.aside),
                          "box": list(ch.aside_box) if ch.aside_box else None,
                          "removed": list(ch.removed), "players": list(ch.players)},
            "focus": pts}


def _fight(state: Battlefield, ch: GambitChallenge, dice, decisions, log) -> None:
    """Steps 2-5 for an accepted challenge; updates ``ch`` (models, removed, winner, points)."""
    p1, p2 = ch.players
    by_player = {p1: ch.challenger, p2: ch.challenged}
    active = state.active_player
    reactive = state.other_player(active)
    geom = snapshot(state)
    support, counted = {}, {}
    for p in (p1, p2):
        support[p], counted[p], how = outside_support(state, ch.combat, p, geom)
        log.emit("outside_support", RULE_SUPPORT, player=p, bonus=support[p], models=counted[p], counted=how)
    advantage: str | None = None
    banked: dict[str, int] = {}
    taunts: dict[str, int] = {}
    caused: dict[str, int] = {p1: 0, p2: 0}
    round_no = 0
    last: dict[str, str] = {}
    while True:
        round_no += 1
        ds = _duellists(ch, by_player)
        wps = {p: ds[p].weapon(odds.best_weapon(ds[p], ds[next(q for q in (p1, p2) if q != p)]))
               for p in (p1, p2)}
        setup = odds.DuelSetup((p1, p2), ds, wps, support=support, banked=banked, taunts=taunts,
                               caused=caused, advantage=advantage, active=active, round_no=round_no)
        cache: dict = {}
        fo = face_off(round_no, (p1, p2), p1, advantage, active, decisions, log,
                      default_for=lambda p, o, c, b, s=setup, k=cache: odds.best_gambit(s, p, o, c, b, k),
                      default_ban=lambda p, o, s=setup, k=cache: odds.best_ban(s, p, o, k))
        last = fo.chosen
        for p, g in fo.chosen.items():
            if gambit(g).taunt:
                taunts[p] = taunts.get(p, 0) + 1
        log.step(f"Face-Off (round {round_no})", "gambit-challenge.txt Step 2 (Face-Off)", state,
                 **_draw_challenge(ch, state), gambits=dict(fo.chosen), banned=list(fo.banned),
                 first=fo.order[0])
        # Step 3: weapons, reactive player first; Focus Rolls
        for p in (reactive, active):
            names = [w.name for w in ds[p].weapons]
            foe = ds[next(q for q in (p1, p2) if q != p)]
            w = decisions.choose(p, "weapon", names, default=odds.best_weapon(ds[p], foe), rule=RULE_FOCUS,
                                 why_not=lambda v, n=names: f"{v!r} is not a weapon of this model ({', '.join(n)})")
            wps[p] = ds[p].weapon(w)
            log.emit("weapon_chosen", RULE_FOCUS, player=p, model=by_player[p], weapon=w)
        focus = {}
        sides = []
        for p in (p1, p2):
            mods, dropped = focus_modifiers(ds[p], wps[p], gambit(fo.chosen[p]), support[p], banked.get(p, 0))
            focus[p] = {"modifiers": mods, "dropped": dropped}
            if ds[p].combat_initiative is not None:
                focus[p]["combat_initiative"] = ds[p].combat_initiative   # a status sets it
            sides.append((p, gambit(fo.chosen[p]), mods))
        start = len(log.events)
        winner, totals, rerolls = focus_step(dice, sides)
        for ev in log.events[start:]:
            if ev.type == "roll" and ev.get("player") in focus:
                rec = focus[ev["player"]]
                keep = gambit(fo.chosen[ev["player"]]).focus_keep
                rec.update(dice=ev["dice"], total=ev["result"], keep=keep,
                           kept=max(ev["dice"]) if keep == "highest" else
                           min(ev["dice"]) if keep == "lowest" else ev["dice"][0])
        banked = {}
        advantage = winner
        log.emit("challenge_advantage", RULE_FOCUS, player=winner, totals=totals, rerolls=rerolls)
        log.step(f"Focus (round {round_no})", RULE_FOCUS, state, **_draw_challenge(ch, state),
                 gambits=dict(fo.chosen), focus_roll=focus, advantage=winner,
                 support={p: {"bonus": support[p], "models": counted[p]} for p in (p1, p2)})
        # Step 4: Strike
        flurry = {}
        for p in (p1, p2):
            if gambit(fo.chosen[p]).attacks_d3:
                flurry[p] = dice.d3(purpose="Flurry of Blows attacks", player=p, rule=RULE_STRIKE)
        sides3 = {p: (ds[p], wps[p], gambit(fo.chosen[p])) for p in (p1, p2)}
        profs = strike_profiles(sides3, winner, fo.precedence, flurry, support)   # PRECEDENCE_WHEN
        for p, pr in profs.items():
            log.emit("strike_profile", RULE_STRIKE, player=p, model=by_player[p], WS=pr.ws, A=pr.attacks,
                     S=pr.strength, AP=pr.ap, D=pr.damage, notes=list(pr.notes),
                     precedence=fo.precedence)
        res = strike_step(dice, profs, ds, winner)
        for atk, bl in res.blows.items():
            dfn = p2 if atk == p1 else p1
            caused[atk] += bl.damage
            mid = by_player[dfn]
            m = ch.models[mid]
            ch.models[mid] = replace(m, wounds_lost=m.wounds_lost + bl.damage, written=m.written | {"wounds_lost"})
            log.emit("wounds", RULE_STRIKE, model=mid, by=by_player[atk], hits=bl.hits, wounds=bl.wounds,
                     unsaved=bl.unsaved, lost=bl.damage, wounds_left=ds[dfn].wounds_left - bl.damage)
            g = gambit(fo.chosen[dfn])
            if g.focus_per_enemy_miss and bl.misses:
                banked[dfn] = g.focus_per_enemy_miss * bl.misses
        for p in res.removed:
            ch.removed.append(by_player[p])
            log.emit("removed", RULE_STRIKE, model=by_player[p])
        ch.rounds.append({"round": round_no, "gambits": dict(fo.chosen), "focus": totals,
                          "advantage": winner, "blows": {p: vars(b) for p, b in res.blows.items()}})
        log.step(f"Strike (round {round_no})", RULE_STRIKE, state, **_draw_challenge(ch, state),
                 gambits=dict(fo.chosen), advantage=winner,
                 blows={by_player[p]: vars(b) for p, b in res.blows.items()})
        if res.removed:
            break
        # a draw: the advantage holder may prolong
        nxt = winner
        for p in (p1, p2):
            if gambit(fo.chosen[p]).advantage_next and by_player[p] not in ch.removed:
                nxt = p
        ds_now = _duellists(ch, by_player)
        now = glory(ds_now, [], caused, taunts)
        if round_no >= HARD_ROUND_LIMIT:
            log.emit("prolong_limit", RULE_DRAW, rounds=round_no,
                     reason=f"named default HARD_ROUND_LIMIT {HARD_ROUND_LIMIT}: the text sets no limit")
            break
        default = _prolong_default(ds_now, wps, support, banked, taunts, caused, nxt, active, winner, now,
                                   round_no)
        again = decisions.choose(winner, "prolong", [True, False], default=default, rule=RULE_DRAW)
        log.emit("prolong", RULE_DRAW, player=winner, value=bool(again))
        if not again:
            break
        advantage = nxt
    # Step 5: Glory
    ds = _duellists(ch, by_player)
    removed_players = [p for p in (p1, p2) if by_player[p] in ch.removed]
    result = glory(ds, removed_players, caused, taunts)
    withdrawn = None
    for p in (p1, p2):
        if gambit(last[p]).may_withdraw and p not in removed_players:
            dflt = result.winner not in (None, p)
            if decisions.choose(p, "withdraw", [True, False], default=dflt, rule=RULE_GLORY):
                withdrawn = p
                result = glory(ds, removed_players, caused, taunts, withdrawn=p)
                break
    ch.winner, ch.points = result.winner, result.points
    log.emit("challenge_result", RULE_GLORY, winner=result.winner,
             winner_model=by_player[result.winner] if result.winner else None,
             removed=list(ch.removed), points=result.points, overkill=None, reason=result.reason,
             withdrawn=withdrawn, wounds_caused=dict(caused), rounds=round_no)
    log.step("Glory", RULE_GLORY, state, **_draw_challenge(ch, state), points={result.winner: result.points}
             if result.winner else {}, reason=result.reason)


def _prolong_default(ds, wps, support, banked, taunts, caused, nxt, active, holder, now, round_no) -> bool:
    """Prolong when one more round is worth more to the advantage holder than the Glory Step now."""
    if round_no >= PROLONG_LIMIT:
        return False
    players = tuple(ds)
    other = players[1] if players[0] == holder else players[0]
    stop = (now.points if now.winner == holder else -now.points if now.winner == other else 0)
    setup = odds.DuelSetup(players, ds, wps, support=support, banked=banked, taunts=taunts, caused=caused,
                           advantage=nxt, active=active, round_no=round_no + 1)
    best, _ = odds.policy_pair(setup, first=nxt)
    return best.points[holder] - best.points[other] > stop


# ------------------------------------------------------------------ Resolution
def return_models(state: Battlefield, sub: ChallengeSubphase, log) -> Battlefield:
    """Return every surviving set-aside model to the table (Resolution Sub-phase).

    Each goes back to its unit: in coherency with at least one other model of
    it and engaged with an enemy unit wherever possible; if its unit is gone,
    in base contact with an enemy model of a unit it was locked with at the
    start of the Challenge Sub-phase.  A model with no legal spot stays where
    it stood before (the event says so).

    Order (named default ``RETURN_ORDER``): challenge by challenge, the
    Challenger then the Challenged, each nearest where it stood; once all are
    back, a model that is not engaged is placed again if an engaged spot is
    now open (an enemy returned after it: "engaged wherever possible").  The
    ``returned`` events {model, at, engaged, unit_left} come after every model
    is placed, ``engaged`` read from the final table.
    """
    pending = [(ch, m) for ch in sub.challenges for m in ch.survivors]
    notes: dict[str, str] = {}
    for ch, m in pending:
        state, note = _return_one(state, ch, m, state.owner(m.id) if state.has_unit(m.unit_id)
                                  else ch.units[m.id].player)
        if note:
            notes[m.id] = note
    if pending:
        geom = snapshot(state)
        for ch, m in pending:
            if m.id in notes or geom.model_engaged(m.id):
                continue
            here = state.model(m.id)
            spot = find_return_spot(state, here, state.owner(m.id), ch.locked_with.get(m.id, ()),
                                    prefer=ch.origin[m.id])
            if spot is not None and spot.engaged and spot.at != here.at:
                state = state.with_models([here.moved_to(*spot.at)])
                geom = snapshot(state)
        for _, m in pending:
            at = state.model(m.id).at
            ev = {"model": m.id, "at": [round(at[0], 4), round(at[1], 4)],
                  "engaged": bool(geom.model_engaged(m.id)),
                  "unit_left": len(state.unit(m.unit_id).models) > 1}
            if m.id in notes:
                ev["note"] = notes[m.id]
            log.emit("returned", RULE_RESOLUTION, **ev)
    if sub.set_aside:
        back = {m.id: {"at": list(state.model(m.id).at), "from": list(ch.origin[m.id])}
                for ch in sub.challenges for m in ch.survivors if on_table(state, m.id)}
        log.step("Resolution: challengers return", RULE_RESOLUTION, state, returned=back,
                 focus=[v["at"] for v in back.values()] + [v["from"] for v in back.values()])
    return state


def _return_one(state: Battlefield, ch: GambitChallenge, m: Model, player: str) -> tuple[Battlefield, str | None]:
    """Place one set-aside model (``find_return_spot``); (new state, a note when no legal spot)."""
    spot = find_return_spot(state, m, player, ch.locked_with.get(m.id, ()), prefer=ch.origin[m.id])
    note = None
    if spot is None:
        at, note = ch.origin[m.id], "no legal spot found: left where it stood"
    else:
        at = spot.at
    return _put_back(state, m.moved_to(*at), ch.units[m.id], ch.unit_index[m.id]), note


def end_phase(state: Battlefield, log=None) -> Battlefield:
    """Remove every Disgraced status, without a test (``DISGRACED_ENDS``; ``RULE_END``).

    Run as the last step of a ``fight`` run (``gambit_steps.end_step``).  Emits
    ``status_removed`` {model, status, reason} per model.
    """
    changed = []
    for m in state.models():
        if DISGRACED in m.status:
            changed.append(replace(m, status=tuple(s for s in m.status if s != DISGRACED),
                                   written=m.written | {"status"}))
            if log is not None:
                log.emit("status_removed", RULE_END, model=m.id, status=DISGRACED,
                         reason="removed in the End Phase of the same Player Turn, without a test: "
                                "the fight run ends the phase, the End Phase follows")
    return state.with_models(changed) if changed else state


def duellists_of(ch: GambitChallenge) -> dict[str, Duellist]:
    """The two duellists as they stand now (by player), their units' statuses read."""
    p1, p2 = ch.players
    return _duellists(ch, {p1: ch.challenger, p2: ch.challenged})


def _duellists(ch: GambitChallenge, by_player: dict[str, str]) -> dict[str, Duellist]:
    """Each player's duellist now: its set-aside copy read with its unit as it stood (statuses)."""
    return {p: duellist(ch.models[mid], p, ch.units.get(mid)) for p, mid in by_player.items()}


def _read(m: Model, key: str) -> int:
    """``m``'s ``key`` (WS or Ld) as rolls and tests read it now (halved while Disgraced), 0 if absent."""
    return as_read(m, key, characteristic(m.profile, key, default=0) or 0)


__all__ = [
    "GAMBIT_NAMES",
    "ChallengeSubphase",
    "GambitChallenge",
    "challenge_subphase",
    "eligible",
    "end_phase",
    "outside_support",
    "return_models",
]
