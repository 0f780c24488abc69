"""Exact odds of a gambit challenge round, and the default policy built on them.

The odds come from the same rules code that runs a challenge: the Focus
Roll's dice (``strike.focus_dice``) and one attack (``strike.make_attacks``
with a single attack) are enumerated face by face with
``enumerate_outcomes``; attacks are independent, so a side's unsaved wounds
over n attacks are the exact binomial of that one-attack probability; Flurry
of Blows' D3 is summed over its three values; the Glory Step is
``strike.glory`` itself.  Everything is a ``Fraction``.

Named defaults:

- ``ODDS_ROUNDS = 1``: the odds are for one Face-Off/Focus/Strike round and
  its Glory Step; a draw is reported as a draw (a prolonged challenge is a
  new decision with new odds).
- ``POLICY_VALUE``: a player values an outcome by its expected combat
  resolution points minus the opponent's, ties broken by its chance to win
  minus the opponent's.  The first chooser plays the gambit whose worst
  case over the replies still allowed is best (minimax); the second
  chooser plays the best reply to the gambit it saw.
- ``WITHDRAW_WHEN_LOSING``: a player who chose Withdraw ends the challenge
  in the Glory Step when it would otherwise lose it.
- ``WEAPON_POLICY``: each side's weapon is the one with the highest expected
  wounds per Strike Step against the enemy's best weapon's Weapon Skill, its
  Toughness and save (the Initiative modifier is not weighed).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from math import comb
from typing import Any

from tabletop.rules.challenges.duellist import Duellist, Weapon
from tabletop.rules.challenges.gambits import FEINT, GAMBIT_NAMES, allowed, gambit, precedence
from tabletop.rules.challenges.strike import (
    Glory,
    StrikeProfile,
    focus_dice,
    focus_modifiers,
    glory,
    make_attacks,
    strike_profiles,
)
from tabletop.rules.dice import enumerate_outcomes

ODDS_ROUNDS = 1
POLICY_VALUE = "expected points difference, then win chance difference"
WITHDRAW_WHEN_LOSING = True
WEAPON_POLICY = "most expected wounds per Strike Step"


@dataclass
class DuelSetup:
    """Everything one round's odds depend on.

    ``players``: (the Challenger's player, the Challenged's player);
    ``duellists``/``weapons``/``support``/``banked``/``taunts``/``caused``:
    by player (outside support bonus, Guard Up's banked Focus bonus, times
    Taunt and Bait was chosen so far, Wounds caused so far);
    ``advantage``: who holds the Challenge Advantage at this Face-Off;
    ``active``: the Active Player.
    """

    players: tuple[str, str]
    duellists: dict[str, Duellist]
    weapons: dict[str, Weapon]
    support: dict[str, int] = field(default_factory=dict)
    banked: dict[str, int] = field(default_factory=dict)
    taunts: dict[str, int] = field(default_factory=dict)
    caused: dict[str, int] = field(default_factory=dict)
    advantage: str | None = None
    active: str | None = None
    round_no: int = 1

    def other(self, p: str) -> str:
        return self.players[1] if p == self.players[0] else self.players[0]


@cache
def _focus_faces(name: str) -> tuple[tuple[int, Fraction], ...]:
    g = gambit(name)
    dist = enumerate_outcomes(lambda dice: focus_dice(dice, g, log=False)[1])
    return tuple(sorted(dist.items()))


def focus_distribution(setup: DuelSetup, player: str, name: str) -> dict[int, Fraction]:
    """Exact distribution of ``player``'s Focus Roll total with gambit ``name``."""
    d = setup.duellists[player]
    mods, _ = focus_modifiers(d, setup.weapons[player], gambit(name), setup.support.get(player, 0),
                              setup.banked.get(player, 0))
    m = sum(mods.values())
    return {k + m: p for k, p in _focus_faces(name)}


def advantage_chance(setup: DuelSetup, gambits: dict[str, str]) -> dict[str, Fraction]:
    """Chance each player takes the Challenge Advantage (ties re-rolled until one is higher)."""
    a, b = setup.players
    da, db = focus_distribution(setup, a, gambits[a]), focus_distribution(setup, b, gambits[b])
    wa = sum(pa * pb for ta, pa in da.items() for tb, pb in db.items() if ta > tb)
    wb = sum(pa * pb for ta, pa in da.items() for tb, pb in db.items() if ta < tb)
    return {a: wa / (wa + wb), b: wb / (wa + wb)}


@cache
def _p_unsaved(ws: int, ws_def: int, s: int, t: int, sv: int | None, inv: int | None, ap: int) -> Fraction:
    prof = StrikeProfile("odds", ws, 1, s, ap, 1)
    dfn = Duellist("odds", "odds", ws_def, 1, t, sv, inv, 99, 1, 1, 7, False, False, 0, False,
                   False, ())
    dist = enumerate_outcomes(lambda dice: make_attacks(dice, prof, ws_def, dfn, 99, log=False).unsaved)
    return dist.get(1, Fraction(0))


def unsaved_chance(prof: StrikeProfile, defender_ws: int, defender: Duellist) -> Fraction:
    """Exact chance one of ``prof``'s attacks becomes an unsaved wound (one attack, enumerated)."""
    return _p_unsaved(prof.ws, defender_ws, prof.strength, defender.t, defender.sv, defender.inv, prof.ap)


@cache
def _binomial(n: int, p: Fraction) -> tuple[tuple[int, Fraction], ...]:
    return tuple((k, comb(n, k) * p ** k * (1 - p) ** (n - k)) for k in range(n + 1))


def _withdraw(setup: DuelSetup, gs: dict, removed: list[str], g: Glory) -> str | None:
    if not WITHDRAW_WHEN_LOSING:
        return None
    for p in setup.players:
        if gs[p].may_withdraw and p not in removed and g.winner not in (None, p):
            return p
    return None


def round_outcomes(setup: DuelSetup, gambits: dict[str, str]) -> list[tuple[Fraction, Glory, tuple[str, ...]]]:
    """Every outcome of one round with these gambits: (probability, Glory, players removed)."""
    out: list[tuple[Fraction, Glory, tuple[str, ...]]] = []
    gs = {p: gambit(gambits[p]) for p in setup.players}
    sides = {p: (setup.duellists[p], setup.weapons[p], gs[p]) for p in setup.players}
    taunts = {p: setup.taunts.get(p, 0) + (1 if gs[p].taunt else 0) for p in setup.players}
    ds = {p: setup.duellists[p] for p in setup.players}
    flurry_sets: list[tuple[dict[str, int], Fraction]] = [({}, Fraction(1))]
    for p in setup.players:
        if gs[p].attacks_d3:
            flurry_sets = [({**f, p: k}, q * Fraction(1, 3)) for f, q in flurry_sets for k in (1, 2, 3)]
    glories: dict[tuple, Glory] = {}
    for first, p_adv in advantage_chance(setup, gambits).items():
        if p_adv == 0:
            continue
        second = setup.other(first)
        for flurry, p_fl in flurry_sets:
            profs = strike_profiles(sides, first, precedence(setup.advantage, setup.active or first), flurry,
                                    setup.support)
            d1, d2 = setup.duellists[first], setup.duellists[second]
            pr1, pr2 = profs[first], profs[second]
            q1 = unsaved_chance(pr1, pr2.ws, d2)
            q2 = unsaved_chance(pr2, pr1.ws, d1)
            left2, left1 = d2.wounds_left, d1.wounds_left
            for k1, pk1 in _binomial(pr1.attacks, q1):
                dmg1 = min(k1 * pr1.damage, left2)
                base = p_adv * p_fl * pk1
                if base == 0:
                    continue
                if dmg1 >= left2:
                    outcomes = [(base, (second,), dmg1, 0)]
                else:
                    outcomes = []
                    for k2, pk2 in _binomial(pr2.attacks, q2):
                        dmg2 = min(k2 * pr2.damage, left1)
                        outcomes.append((base * pk2, (first,) if dmg2 >= left1 else (), dmg1, dmg2))
                for prob, removed, w1, w2 in outcomes:
                    if prob == 0:
                        continue
                    key = (first, removed, w1, w2)
                    g = glories.get(key)
                    if g is None:
                        caused = {first: setup.caused.get(first, 0) + w1,
                                  second: setup.caused.get(second, 0) + w2}
                        g = glory(ds, list(removed), caused, taunts)
                        w = _withdraw(setup, gs, list(removed), g)
                        if w is not None:
                            g = glory(ds, list(removed), caused, taunts, withdrawn=w)
                        glories[key] = g
                    out.append((prob, g, removed))
    return out


@dataclass(frozen=True)
class PairOdds:
    """One gambit pair's odds: win chance and expected points by player, and the draw chance."""

    gambits: tuple[tuple[str, str], ...]
    win: dict[str, Fraction]
    draw: Fraction
    points: dict[str, Fraction]

    def value(self, p: str) -> tuple[Fraction, Fraction]:
        o = next(q for q in self.win if q != p)
        return (self.points[p] - self.points[o], self.win[p] - self.win[o])


def pair_odds(setup: DuelSetup, gambits: dict[str, str]) -> PairOdds:
    """Chance each side wins, of a draw, and expected points, for one gambit pair."""
    win = {p: Fraction(0) for p in setup.players}
    pts = {p: Fraction(0) for p in setup.players}
    draw = Fraction(0)
    for prob, g, _ in round_outcomes(setup, gambits):
        if g.winner is None:
            draw += prob
        else:
            win[g.winner] += prob
            pts[g.winner] += prob * g.points
    return PairOdds(tuple((p, gambits[p]) for p in setup.players), win, draw, pts)


def gambit_table(setup: DuelSetup, first: str | None = None) -> list[PairOdds]:
    """Odds for every pair the Face-Off allows: ``first`` (default the Challenger's player) chooses first."""
    first = first or setup.players[0]
    second = setup.other(first)
    rows = []
    for g1 in allowed(True, [], []):
        for g2 in allowed(False, [g1], []):
            rows.append(pair_odds(setup, {first: g1, second: g2}))
    return rows


def _val(setup: DuelSetup, player: str, gambits: dict[str, str], cache: dict) -> tuple:
    return _odds_of(setup, gambits, cache).value(player)


def best_gambit(setup: DuelSetup, player: str, options: list[str], chosen: dict[str, str],
                banned: list[str], cache: dict | None = None) -> str:
    """The default policy's gambit (``POLICY_VALUE``): best reply, or minimax when choosing first."""
    cache = {} if cache is None else cache
    other = setup.other(player)
    if other in chosen:
        return max(options, key=lambda g: _val(setup, player, {player: g, other: chosen[other]}, cache))

    def worst(g: str) -> tuple:
        if gambit(g).bans:
            return max(_feint_worst(setup, player, ban, cache) for ban in GAMBIT_NAMES if ban != g)
        replies = allowed(False, [g], [])
        return min(_val(setup, player, {player: g, other: r}, cache) for r in replies)

    return max(options, key=worst)


def _feint_worst(setup: DuelSetup, player: str, ban: str, cache: dict) -> tuple:
    other = setup.other(player)
    replies = allowed(False, [FEINT], [ban])
    return min(_val(setup, player, {player: FEINT, other: r}, cache) for r in replies)


def best_ban(setup: DuelSetup, player: str, options: list[str], cache: dict | None = None) -> str:
    """The gambit Feint and Riposte names: the one whose absence helps ``player`` most."""
    cache = {} if cache is None else cache
    return max(options, key=lambda ban: _feint_worst(setup, player, ban, cache))


def expected_wounds(att: Duellist, wp: Weapon, dfn: Duellist, dfn_ws: int) -> Fraction:
    """Expected wounds one Strike Step of ``att`` with ``wp`` removes (``WEAPON_POLICY``)."""
    prof = StrikeProfile(att.player, att.ws, att.attacks_with(wp), att.strength_with(wp), wp.ap, wp.damage)
    return prof.attacks * unsaved_chance(prof, dfn_ws, dfn) * min(prof.damage, max(1, dfn.wounds_left))


def best_weapon(att: Duellist, dfn: Duellist) -> str:
    """The default weapon (``WEAPON_POLICY``)."""
    return max(att.weapons, key=lambda wp: expected_wounds(att, wp, dfn, dfn.ws)).name


def policy_pair(setup: DuelSetup, first: str | None = None, memo: dict | None = None) -> tuple[PairOdds, list[str]]:
    """The pair the default policy plays (``first`` chooses first) and any gambit Feint and Riposte bans."""
    memo = {} if memo is None else memo
    first = first or setup.players[0]
    second = setup.other(first)
    g1 = best_gambit(setup, first, allowed(True, [], []), {}, [], memo)
    banned = [best_ban(setup, first, [n for n in GAMBIT_NAMES if n != g1], memo)] if gambit(g1).bans else []
    g2 = best_gambit(setup, second, allowed(False, [g1], banned), {first: g1}, banned, memo)
    return _odds_of(setup, {first: g1, second: g2}, memo), banned


def _odds_of(setup: DuelSetup, gambits: dict[str, str], memo: dict) -> PairOdds:
    key = (gambits[setup.players[0]], gambits[setup.players[1]])
    if key not in memo:
        memo[key] = pair_odds(setup, gambits)
    return memo[key]


def odds_summary(setup: DuelSetup, first: str | None = None) -> dict[str, Any]:
    """JSON-ready: the table of every allowed pair and the pair the default policy would play."""
    memo: dict = {}
    first = first or setup.players[0]
    second = setup.other(first)
    rows = [_odds_of(setup, {first: g1, second: g2}, memo)
            for g1 in allowed(True, [], []) for g2 in allowed(False, [g1], [])]
    best, banned = policy_pair(setup, first, memo)
    return {
        "first": first, "second": second, "rounds": ODDS_ROUNDS,
        "pairs": [_row(r) for r in rows],
        "policy": {**_row(best), "banned": banned},
    }


def _row(r: PairOdds) -> dict[str, Any]:
    return {
        "gambits": {p: g for p, g in r.gambits},
        "win": {p: float(v) for p, v in r.win.items()},
        "draw": float(r.draw),
        "expected_points": {p: float(v) for p, v in r.points.items()},
    }
