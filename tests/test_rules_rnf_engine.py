"""The rank-and-flank phase on the rules engine (rank_and_flank/phase.py, odds.py; issue 9).

- a disgraced commander lends no Discipline, not even as the last model of its unit
  (character-challenge.txt ¶3), in the fight and in the odds, worked by hand;
- a run replayed from its answers gives the same events;
- the odds agree with a seeded Monte Carlo of the real resolver (``fight`` with seeded dice)
  within 4 standard errors, and the exact probabilities sum to 1;
- the exact 5x4 v 5x4 figures, and the engine's walk is what ``fight --odds`` reports.

The disgrace map: a (red) is one model, its commander a/1 (Skill 3, Power 3, Attacks 1); b
(blue) is one file of two ranks, the Lord b/1 (commander, Discipline 9, Wounds 30) in front
and a trooper b/2 (Discipline 7, Attacks 0) behind.  Red issues, blue refuses, red names the
Lord: he trades places with b/2 (¶3) and does not attack; blue scores nothing.
a/1 hits b's unit on 4+ (Skill 3 v 3) and b saves on 4+: it wounds with 1/2 x 1/2 = 1/4.
A wound kills b/2 (Wounds 1) and leaves the disgraced Lord the last model: red wins by 1 and b
tests on its rank-and-file's Discipline 7 (not the Lord's 9), no ranks, less 1: 2D6 <= 6,
broken with 21/36.  breaks.b = 1/4 x 21/36 = 7/48 (with the Lord's 9: 1/4 x 10/36 = 5/72).
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

from rnf_maps import rnf_map, run, unit

from tabletop.rules.decisions import Decisions
from tabletop.rules.dice import Dice
from tabletop.rules.engine import driver, walk
from tabletop.rules.events import EventLog
from tabletop.rules.rank_and_flank import odds as O
from tabletop.rules.rank_and_flank.phase import fight, key, phase, round_machine
from tabletop.rules.registry import find_ruleset

REFUSE = [{"player": "red", "choice": "issue_challenge", "value": "a/1"},
          {"player": "blue", "choice": "accept_challenge", "value": "refuse"},
          {"player": "red", "choice": "disgrace", "value": "b/1"}]
LORD = {"name": "Lord", "role": "commander", "file": 1, "rank": 1,
        "profile": {"Discipline": 9, "Wounds": 30}}
CAPTAIN = {"name": "Captain", "role": "commander", "file": 1, "rank": 1}


def disgrace_map():
    return rnf_map(unit("a", "red", (24, 24), 90, 1, 1, models=[CAPTAIN]),
                   unit("b", "blue", (24, 24), 270, 1, 2, profile={"Attacks": 0}, models=[LORD]),
                   rules={"challenges": "character"}, decisions=REFUSE)


def test_a_disgraced_last_model_lends_no_discipline_in_the_fight():
    # a/1 hits (4) and b fails its save (1): b/2 dies, the Lord is left; 2D6 = 4 + 3 = 7
    res, log, dice = run(disgrace_map(), [4, 1, 4, 3])
    assert dice.remaining == []
    (refused,) = [e.data for e in log.events if e.type == "challenge_refused"]
    assert refused["disgraced"] == "b/1"
    (bt,) = [e.data for e in log.events if e.type == "break_test"]
    # not the Lord's 9: the unit's rank-and-file 7, named by the unit (b/2 is removed)
    assert (bt["discipline"], bt["discipline_from"]) == (7, "b")
    assert bt["target"] == 6 and bt["total"] == 7 and bt["result"] == "breaks"


def test_a_disgraced_last_model_lends_no_discipline_in_the_odds():
    r = O.engagement_odds(disgrace_map(), ["a", "b"])
    assert r["method"] == "exact"
    assert r["challenge"]["disgraced"] == "b/1"
    assert r["exact"]["win"] == {"red": "1/4", "blue": "0"}
    assert r["exact"]["breaks"] == {"a": "0", "b": "7/48"}


def test_a_run_replayed_from_its_answers_gives_the_same_events():
    from tabletop.board.state import Decision
    state = disgrace_map()
    first = EventLog()
    machine, start = phase(state)
    done = driver.run(machine, start, dice=Dice(3, first), scripted=state.decisions, log=first)
    assert [(a.player, a.choice, a.value) for a in done.answers] == [
        (d.player, d.choice, d.value) for d in state.decisions]
    again = EventLog()
    replayed = driver.run(machine, start, dice=Dice(3, again),
                          scripted=[Decision(a.player, a.choice, a.value) for a in done.answers],
                          log=again)
    assert again.to_list() == first.to_list()
    assert [s.title for s in again.steps] == [s.title for s in first.steps]
    assert replayed.state.battlefield == done.state.battlefield
    # and the registry's fight is the same run
    third = EventLog()
    find_ruleset("rank-and-flank").fight(state, Dice(3, third), Decisions(state.decisions, third), third)
    assert third.to_list() == first.to_list()


def _fight_outcome(state, seed):
    """The real resolver with seeded dice: (winner, broken units) read from its events."""
    log = EventLog()
    fight(state, Dice(seed, log), Decisions(state.decisions, log), log)
    (score,) = [e.data for e in log.events if e.type == "combat_score"]
    broken = tuple(sorted(e.data["unit"] for e in log.events
                          if e.type == "break_test" and e.data.get("result") == "breaks"))
    return score["winner"], broken


def test_odds_agree_with_a_seeded_monte_carlo_of_the_fight():
    from tabletop.board.mapfile import load
    for state in (disgrace_map(), load("maps/lessons/flank-charge.toml")):
        from tabletop.geometry import snapshot
        units = snapshot(state).engagements[0]
        machine, start = round_machine(state, units)
        start = O._to_first_chance(machine, start, state.decisions)
        exact = walk.exact(machine, start, outcome=O._result, key=key, scripted=state.decisions)
        assert sum(exact.dist.values()) == 1
        n = 200                 # 4 standard errors: 0.14 at p = 0.5, 0.06 at p = 0.05
        rng = random.Random(7)
        got: dict = {}
        for _ in range(n):
            o = _fight_outcome(state, rng.randrange(10 ** 9))
            got[o] = got.get(o, 0) + 1
        for winner in {k[0] for k in exact.dist} | {k[0] for k in got}:
            p = float(exact.p(lambda k, w=winner: k[0] == w))
            q = sum(c for k, c in got.items() if k[0] == winner) / n
            se = math.sqrt(max(p * (1 - p), 1e-4) / n)
            assert abs(p - q) < 4 * se, (winner, p, q)
        for u in units:
            p = float(exact.p(lambda k, u=u: u in k[1]))
            q = sum(c for k, c in got.items() if u in k[1]) / n
            assert abs(p - q) < 4 * math.sqrt(max(p * (1 - p), 1e-4) / n), (u, p, q)


def test_five_by_four_is_exact_and_sums_to_one():
    from tabletop.bench.odds_bench import rnf_5x4_battlefield
    state = rnf_5x4_battlefield()
    (e,) = find_ruleset("rank-and-flank").odds(state)["engagements"]
    assert e["method"] == "exact"
    ex = e["exact"]
    total = sum(Fraction(v) for v in ex["win"].values()) + Fraction(ex["tie"])
    assert total == 1
