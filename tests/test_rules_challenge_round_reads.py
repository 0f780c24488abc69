"""A round's odds are kept by what the round reads (gambit_rows.round_reads, pair_odds): the
Face-Offs of a prolonged duel that play alike share one walk, and the kept odds are exactly a
plain walk of the rows from the duel as it stands.

Two lone champions in base contact (no outside support): WS 4, S 4, T 4, I 4, A 1, Sv 3+ unless
a test says otherwise; red issued (red chooses first in round 1).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest
from challengekit import battlefield, model, unit

from tabletop.board.state import Decision
from tabletop.geometry import snapshot
from tabletop.rules.challenges import gambit_rows
from tabletop.rules.challenges.gambit_rows import (
    HARD_ROUND_LIMIT,
    GambitOnly,
    machine,
    pair_odds,
    round_reads,
    state_key,
)
from tabletop.rules.challenges.gambits import (
    FEINT,
    FINISHING,
    FLURRY,
    GAMBIT_NAMES,
    GUARD,
    SEIZE,
    TAUNT,
    TEST,
    first_chooser,
)
from tabletop.rules.engine import walk
from tabletop.rules.engine.machine import PhaseState

HERO = {"WS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1, "Ld": 8, "Sv": 3}
BLADE = [{"name": "Blade"}]


def lone_pair(red=None, blue=None, **kw):
    a = unit("a", "red", [model(10.0, 10.0, role="champion")], profile={**HERO, **(red or {})}, weapons=BLADE)
    b = unit("b", "blue", [model(10.0, 11.26, role="champion")], profile={**HERO, **(blue or {})},
             weapons=BLADE)
    return battlefield([a, b], **kw)


def start_of(s):
    return gambit_rows.duel_start(s, tuple(snapshot(s).engagements[0]), "red", "a/1", "b/1")


def later(start, **changes):
    """``start`` with its duel changed (``changes`` to the GambitChallenge; ``lost`` sets the
    wounds lost by model id), at a round's Face-Off."""
    memo = start.memo.challenge
    ch = memo.challenges[-1]
    lost = changes.pop("lost", {})
    models = tuple((mid, replace(m, wounds_lost=lost.get(mid, m.wounds_lost))) for mid, m in ch.models)
    ch = replace(ch, models=models, **changes)
    return PhaseState(start.battlefield, GambitOnly(replace(memo, challenges=(ch,))), "gambit_face_off")


def plain(start, gambits):
    """The round walked from ``start`` as it stands, nothing kept: the gambits scripted, no
    prolonging; (win by player, draw, expected points by player)."""
    ch = start.memo.challenge.challenges[-1]
    first = first_chooser(ch.round_no + 1, ch.players[0], ch.advantage)
    second = next(p for p in ch.players if p != first)
    script = [Decision(first, "gambit", gambits[first])]
    if gambits[first] == FEINT:
        script.append(Decision(first, "feint", next(n for n in GAMBIT_NAMES
                                                    if n not in (gambits[first], gambits[second]))))
    script += [Decision(second, "gambit", gambits[second])]
    script += [Decision(p, "prolong", False) for p in ch.players]

    def out(st):
        c = st.memo.challenge.challenges[-1]
        return (c.winner, c.points)
    o = walk.exact(machine(), start, outcome=out, key=state_key, scripted=script)
    win = {p: sum((q for (w, _), q in o.dist.items() if w == p), Fraction(0)) for p in ch.players}
    pts = {p: sum((q * n for (w, n), q in o.dist.items() if w == p), Fraction(0)) for p in ch.players}
    return win, o.dist.get((None, 0), Fraction(0)), pts


def counting(monkeypatch):
    walks = []
    real = gambit_rows.walk.exact
    monkeypatch.setattr(gambit_rows.walk, "exact", lambda *a, **k: walks.append(1) or real(*a, **k))
    return walks


def test_round_reads_keeps_who_chooses_first_and_whose_gambit_takes_precedence():
    ch = start_of(lone_pair()).memo.challenge.challenges[-1]            # players (red, blue)
    last = (("red", SEIZE), ("blue", FLURRY))
    # round 1 (round_no 0): red (the Challenger's player) first, the Active Player red precedes
    assert round_reads(ch, "red") is ch
    # round 3, advantage red, red active: red first and red precedes, as in round 1
    r = round_reads(replace(ch, round_no=2, advantage="red", last=last), "red")
    assert (r.round_no, r.advantage, r.last) == (0, None, ())
    # round 3, advantage blue: blue first and blue precedes: plays as round 2 with blue's advantage
    r = round_reads(replace(ch, round_no=2, advantage="blue", last=last), "red")
    assert (r.round_no, r.advantage, r.last) == (1, "blue", ())
    # round 6, advantage red, blue active: red first, red precedes (round 1 would have blue precede)
    r = round_reads(replace(ch, round_no=5, advantage="red", last=last), "blue")
    assert (r.round_no, r.advantage, r.last) == (1, "red", ())
    # the last round before the hard limit is its own (it goes to Glory without a prolong question)
    r = round_reads(replace(ch, round_no=HARD_ROUND_LIMIT - 1, advantage="blue", last=last), "red")
    assert (r.round_no, r.advantage) == (HARD_ROUND_LIMIT - 1, "blue")
    # everything else a round reads is kept
    r = round_reads(replace(ch, round_no=2, advantage="red", banked=(("blue", 2),),
                            taunts=(("red", 1),), caused=(("red", 1), ("blue", 0))), "red")
    assert (r.banked, r.taunts, r.caused) == ((("blue", 2),), (("red", 1),), (("red", 1), ("blue", 0)))


def test_a_later_round_played_like_round_1_shares_its_walk(monkeypatch):
    # Guard Up (red) v Test the Foe (blue), one round (test_rules_challenge_odds's hand working):
    # Focus D6 + 4 each: each takes the advantage half the time; red Guard Up: WS 5 v 4 hits 3+
    # (4/6), wounds 4+ (1/2), Sv 3+ fails 2/6: 1/9; blue Test the Foe: WS 4 v 5 hits 4+ (1/2) x 1/2
    # x 1/3 = 1/12.  P(red) = 1/2 x 1/9 + 1/2 x 11/12 x 1/9 = 23/216; P(blue) = 1/2 x 8/9 x 1/12 +
    # 1/2 x 1/12 = 17/216; draw 176/216; points = base Wounds 1 per win.
    walks = counting(monkeypatch)
    start = start_of(lone_pair())
    pair = {"red": GUARD, "blue": TEST}
    first = pair_odds(start, pair)
    assert first.win == {"red": Fraction(23, 216), "blue": Fraction(17, 216)}
    n = len(walks)
    # round 3 after two draws with no wound: red holds the advantage (it chooses first and its
    # gambit precedes, as in round 1); the last gambits were Seize the Initiative and Flurry of
    # Blows.  Nothing of it changes the round: the same odds, and no walk
    third = pair_odds(later(start, round_no=2, advantage="red",
                            last=(("red", SEIZE), ("blue", FLURRY))), pair)
    assert len(walks) == n
    assert third.win == {"red": Fraction(23, 216), "blue": Fraction(17, 216)}
    assert third.draw == Fraction(176, 216)
    assert third.points == {"red": Fraction(23, 216), "blue": Fraction(17, 216)}


def test_a_round_where_the_other_player_chooses_first_is_walked_on_its_own(monkeypatch):
    # round 2, blue holds the advantage: blue chooses first (Test the Foe), red replies (Guard Up),
    # blue's gambit precedes.  No conflict between the two gambits and no Focus bonus from the
    # advantage held, so the hand odds are round 1's: 23/216 red, 17/216 blue - from a walk of
    # its own (another first chooser)
    walks = counting(monkeypatch)
    start = start_of(lone_pair())
    pair = {"red": GUARD, "blue": TEST}
    pair_odds(start, pair)
    n = len(walks)
    o = pair_odds(later(start, round_no=1, advantage="blue", last=(("blue", TEST), ("red", GUARD))), pair)
    assert len(walks) > n          # walked again (its Face-Off and Focus, then its Strike Step)
    assert o.win == {"red": Fraction(23, 216), "blue": Fraction(17, 216)}


@pytest.mark.parametrize("changes, pair", [
    # round 3, red's advantage; red has lost a Wound (W 2), blue banked +2 from Guard Up
    (dict(round_no=2, advantage="red", lost={"a/1": 1}, banked=(("blue", 2),),
          last=(("red", SEIZE), ("blue", GUARD))), {"red": FLURRY, "blue": GUARD}),
    # round 2, blue's advantage; red chose Taunt and Bait once; Wounds caused 1 to 1
    (dict(round_no=1, advantage="blue", lost={"a/1": 1, "b/1": 1}, taunts=(("red", 1),),
          caused=(("red", 1), ("blue", 1)), last=(("blue", TEST), ("red", TAUNT))),
     {"red": TAUNT, "blue": FINISHING}),
    # round 4, red's advantage, blue active: red first and red precedes (not round 1's blue)
    (dict(round_no=3, advantage="red", last=(("red", FEINT), ("blue", SEIZE))),
     {"red": FEINT, "blue": SEIZE}),
])
def test_kept_odds_are_a_plain_walk_from_the_duel_as_it_stands(changes, pair):
    active = "blue" if changes["round_no"] == 3 else "red"
    s = lone_pair(red={"W": 2, "A": 2}, blue={"W": 2, "WS": 5}, active=active)
    start = later(start_of(s), **changes)
    o = pair_odds(start, pair)
    win, draw, pts = plain(start, pair)
    assert (o.win, o.draw, o.points) == (win, draw, pts)
    assert o.win["red"] + o.win["blue"] + o.draw == 1


# ---------------------------------------------------------------- the Strike chance's counts
def test_the_strike_chance_counts_unsaved_wounds_up_to_those_that_remove_the_defender():
    # 4 attacks at WS 5 v 4 (hits 3+: 2/3), S 4 v T 4 (wounds 4+: 1/2), Sv 3+ at AP 0 (fails 2/6):
    # each attack is an unsaved wound with q = 2/3 x 1/2 x 1/3 = 1/9.
    # 0 unsaved: (8/9)^4 = 4096/6561; 1: 4 x 1/9 x (8/9)^3 = 2048/6561; 2 or more: 417/6561.
    from tabletop.rules.challenges.duellist import Duellist, Weapon
    from tabletop.rules.challenges.gambit_rows import StrikeOutcome, strike_chance, strike_outcomes
    from tabletop.rules.challenges.strike import StrikeProfile
    dfn = Duellist(model_id="b/1", player="blue", ws=4, s=4, t=4, sv=3, inv=None, w=2, i=4, a=1, ld=8,
                   heavy=False, light=False, edge=0, paragon=False, command=False,
                   weapons=(Weapon("Blade"),))
    d1 = StrikeProfile("red", 5, 4, 4, 0, 1)
    # Damage 1, 2 Wounds left: two unsaved wounds remove it; 3 or 4 read the same
    assert dict(strike_outcomes(d1, 4, dfn, False, 2)) == {
        StrikeOutcome(0): Fraction(4096, 6561), StrikeOutcome(1): Fraction(2048, 6561),
        StrikeOutcome(2): Fraction(417, 6561)}
    # Damage 2: one unsaved wound removes it: 1 - 4096/6561 = 2465/6561
    d2 = StrikeProfile("red", 5, 4, 4, 0, 2)
    assert dict(strike_outcomes(d2, 4, dfn, False, 2)) == {
        StrikeOutcome(0): Fraction(4096, 6561), StrikeOutcome(1): Fraction(2465, 6561)}
    # with 4 Wounds left at Damage 1 nothing merges: the plain count distribution
    assert strike_outcomes(d1, 4, dfn, False, 4) == strike_chance(d1, 4, dfn, False)


def test_a_rolled_strike_still_reports_every_unsaved_wound():
    # red issues with a/1 (WS 4, A 2, W 2), blue accepts with b/1 (WS 4, W 2, Sv 3+); red Seize the
    # Initiative, blue Test the Foe.  Focus: red [6, 1] keeps 6 + I 4 = 10, blue [1] + 4 = 5: red
    # takes the advantage and strikes first with A 2 + 1 = 3: hits 4+ [6, 6, 6] = 3, wounds 4+
    # [6, 6, 6] = 3, saves 3+ [1, 1, 1] all fail: 3 unsaved wounds, Damage 1: 2 Wounds lost (all
    # b/1 had), removed.  The chance counted 2 (enough to remove it); the event says 3.
    from challengekit import events, harness

    from tabletop.rules.challenges.gambit import challenge_subphase
    hero = {"WS": 4, "S": 4, "T": 4, "W": 2, "I": 4, "A": 2, "Ld": 8, "Sv": 3}
    sword = [{"name": "Sword", "AP": 0, "D": 1}]
    s = battlefield([unit("a", "red", [model(10.0, 10.0, role="champion")], profile=hero, weapons=sword),
                     unit("b", "blue", [model(10.0, 11.26, role="champion")], profile=hero, weapons=sword)])
    script = [("red", "issue_challenge", "a/1"), ("blue", "accept_challenge", "b/1"),
              ("red", "gambit", SEIZE), ("blue", "gambit", TEST)]
    log, dice, dec = harness(s, [6, 1, 1, 6, 6, 6, 6, 6, 6, 1, 1, 1], script)
    challenge_subphase(s, dice, dec, log)
    assert dice.remaining == []
    w = events(log, "wounds")
    assert [(e["by"], e["hits"], e["wounds"], e["unsaved"], e["lost"], e["wounds_left"]) for e in w] == [
        ("a/1", 3, 3, 3, 2, 0)]
    assert [e["model"] for e in events(log, "removed")] == ["b/1"]
