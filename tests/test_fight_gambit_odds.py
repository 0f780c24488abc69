"""``tabletop fight MAP --odds`` on a map with gambit challenges (``challenges = "gambit"``):
the duel's chances (Focus Roll, Strike) and the Fight step's walked exactly through the phase's
own rows (``fight_phase.odds``, ``walk.exact``), against hand calculations and against the real
resolver (the same rows with seeded dice rolling every die) run many times."""

from __future__ import annotations

import importlib
import math
from fractions import Fraction

from challengekit import battlefield, model, unit

from tabletop.rules.challenges.gambit_rows import ChallengeMemo, GambitChallenge
from tabletop.rules.challenges.gambits import FLURRY, GUARD, SEIZE, TEST
from tabletop.rules.dice import Dice
from tabletop.rules.engine import driver
from tabletop.rules.fight_phase.sequence import phase

odds_mod = importlib.import_module("tabletop.rules.fight_phase.odds")

HERO = {"WS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1, "Ld": 8, "Sv": 3}
TROOPER = {"WS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1, "Ld": 7, "Sv": 3}
BLADE = {"name": "Blade", "A": 1, "WS": 3, "S": 4, "AP": 0, "D": 1}


def duel_and_brawl(decisions=None, red=None, blue=None, attacks=1):
    """Each side: a champion (a/1, b/1) and one trooper (a/2, b/2) with a Blade of ``attacks``
    attacks, the pairs in base contact (1.26" apart, 32mm bases); red is the Active Player and
    selects first (12.04)."""
    blade = {**BLADE, "A": attacks}
    a = unit("a", "red", [model(10.0, 10.0, role="champion", profile={**HERO, **(red or {})},
                                weapons=[{"name": "Blade"}]),
                          model(12.0, 10.0)], profile=TROOPER, weapons=[blade])
    b = unit("b", "blue", [model(10.0, 11.26, role="champion", profile={**HERO, **(blue or {})},
                                 weapons=[{"name": "Blade"}]),
                           model(12.0, 11.26)], profile=TROOPER, weapons=[blade])
    return battlefield([a, b], decisions=decisions, rules={"fight_order_first": "active"})


SCRIPT = [("red", "issue_challenge", "a/1"), ("blue", "accept_challenge", "b/1"),
          ("red", "gambit", GUARD), ("blue", "gambit", TEST),
          ("red", "prolong", False), ("blue", "prolong", False)]


def test_gambit_fight_odds_exact_by_hand():
    # The duel, one round (prolonging refused): Focus D6 + 4 each, so each side takes the
    # Challenge Advantage half the time.  red (Guard Up: WS 5, one attack) hits blue's WS 4 on
    # 3+ (4/6), wounds 4+ (1/2), the 3+ save fails 2/6: 1/9.  blue (Test the Foe, one attack)
    # hits WS 5 on 4+ (1/2) x 1/2 x 1/3 = 1/12.  red first: red wins 1/9, else blue 1/12; blue
    # first: blue 1/12, else red 1/9.
    # P(b/1 removed) = 1/2 * 1/9 + 1/2 * 11/12 * 1/9 = 23/216;
    # P(a/1 removed) = 1/2 * 8/9 * 1/12 + 1/2 * 1/12 = 17/216.
    # The Fight step, the champions set aside: a/2 (red, selects first) makes 1 attack with the
    # Blade: hits 3+ (2/3), wounds S4 v T4 on 4+ (1/2), the 3+ save fails 1/3: 1/9 to remove b/2;
    # if b/2 lives (8/9) it strikes back alike: P(a/2 removed) = 8/9 * 1/9 = 8/81.
    # The duel and the brawl read nothing of each other: a unit is destroyed when both of its
    # models are: P(a destroyed) = 17/216 * 8/81 = 17/2187; P(b destroyed) = 23/216 * 1/9 = 23/1944.
    s = duel_and_brawl(SCRIPT)
    o = odds_mod.odds(s)
    assert o["method"] == "exact"
    assert o["steps"] == ["challenge", "fight", "resolution", "consolidation"]
    by = {r["unit"]: r for r in o["units"]}
    assert by["a"]["p_destroyed_exact"] == str(Fraction(17, 2187))
    assert by["b"]["p_destroyed_exact"] == str(Fraction(23, 1944))
    # models lost: a/1 17/216 + a/2 8/81 = 51/648 + 64/648 = 115/648;
    # b: b/1 23/216 + b/2 1/9 = 23/216 + 24/216 = 47/216
    assert by["a"]["expected_models_lost_exact"] == str(Fraction(115, 648))
    assert by["b"]["expected_models_lost_exact"] == str(Fraction(47, 216))
    # models removed by each unit's attacks (the duel's removals are credited to no unit):
    # a removes b/2 with 1/9; b removes a/2 with 8/81
    assert math.isclose(by["a"]["expected_models_removed"], 1 / 9)
    assert math.isclose(by["b"]["expected_models_removed"], 8 / 81)


def test_gambit_fight_odds_sum_to_one_and_merge_finished_duels():
    s = duel_and_brawl(SCRIPT)
    o = odds_mod.odds(s)
    for r in o["units"]:
        assert math.isclose(sum(r["models_removed"].values()), 1.0)
        assert math.isclose(sum(r["wounds_caused"].values()), 1.0)
    # a finished duel is keyed by who was removed, not by its Focus Rolls, points or Wounds
    # caused (GambitChallenge.ahead): 145 states weighed; keyed by the whole record, 247
    assert o["states"] < 200


def _finished(winner, points, caused):
    ch = GambitChallenge(("a", "b"), "a/1", "b/1", ("red", "blue"), done=True, winner=winner,
                         points=points, caused=caused, round_no=2, removed=("b/1",))
    return ChallengeMemo(combats=(("a", "b"),), index=1, fought=frozenset({"a/1", "b/1"}),
                         challenges=(ch,))


def test_a_finished_duel_is_keyed_by_what_the_phase_reads():
    # two duels that removed the same model but scored differently leave the phase alike
    one, two = _finished("red", 2, (("red", 1), ("blue", 0))), _finished("red", 3, (("red", 2), ("blue", 1)))
    assert one != two and one.ahead() == two.ahead()
    hash(one.ahead())
    # a duel under way is keyed by all of it
    live = GambitChallenge(("a", "b"), "a/1", "b/1", ("red", "blue"), caused=(("red", 1),))
    assert live.ahead() == live.key() != GambitChallenge(("a", "b"), "a/1", "b/1", ("red", "blue"),
                                                          caused=(("red", 2),)).ahead()


def test_gambit_fight_odds_agree_with_the_real_resolver():
    # a longer duel (Seize the Initiative v Flurry of Blows, whose D3 attacks are a chance too;
    # red's champion has 2 Wounds) and a bloodier brawl (2 attacks each): the exact walk against
    # 400 runs of the same rows with seeded dice, each Focus Roll, hit, wound and save rolled die
    # by die (Chance.draw), the same scripted answers: P(destroyed) and E[models lost] of each
    # unit within 4 standard errors (of the exact distribution, over 400 runs).
    script = [("red", "issue_challenge", "a/1"), ("blue", "accept_challenge", "b/1"),
              ("red", "gambit", SEIZE), ("blue", "gambit", FLURRY),
              ("red", "prolong", False), ("blue", "prolong", False)]
    s = duel_and_brawl(script, red={"A": 2, "W": 2}, blue={"WS": 5, "A": 2}, attacks=2)
    o = odds_mod.odds(s)
    assert o["method"] == "exact"
    start, _ = odds_mod._piled_in(s)
    machine, _ = phase(s)
    runs = 400
    dead, lost = {"a": 0, "b": 0}, {"a": 0, "b": 0}
    for seed in range(runs):
        end = driver.run(machine, start, dice=Dice(seed), scripted=s.decisions).state.battlefield
        for u in dead:
            alive = len(end.unit(u).models) if end.has_unit(u) else 0
            dead[u] += alive == 0
            lost[u] += 2 - alive
    for r in o["units"]:
        u, p = r["unit"], r["p_destroyed"]
        se = math.sqrt(p * (1 - p) / runs)
        assert 0.01 < p < 0.99
        assert abs(dead[u] / runs - p) <= 4 * se, (u, dead[u] / runs, p)
        m = r["expected_models_lost"]
        sd = 1.0       # models lost is 0, 1 or 2: its standard deviation is at most 1
        assert abs(lost[u] / runs - m) <= 4 * sd / math.sqrt(runs), (u, lost[u] / runs, m)


def test_the_policy_searches_once_per_situation(monkeypatch):
    # the default policy's gambit search walks one round per gambit pair (gambit_rows.pair_odds);
    # a second table where only a bystander far from the duel stands elsewhere is the same
    # situation for a round (the duel's record, the duellists, the rules, the Active Player):
    # its search walks nothing again
    from tabletop.geometry import snapshot
    from tabletop.rules.challenges import gambit_rows

    walks = []
    real = gambit_rows.walk.exact
    monkeypatch.setattr(gambit_rows.walk, "exact", lambda *a, **k: walks.append(1) or real(*a, **k))

    def table(x):
        a = unit("a", "red", [model(10.0, 10.0, role="champion", profile={**HERO, "A": 3},
                                    weapons=[{"name": "Blade"}])], profile=TROOPER)
        b = unit("b", "blue", [model(10.0, 11.26, role="champion", profile={**HERO, "WS": 6},
                                     weapons=[{"name": "Blade"}])], profile=TROOPER)
        c = unit("c", "red", [model(x, 25.0)], profile=TROOPER)
        return battlefield([a, b, c])

    first, second = table(30.0), table(36.0)
    combat = tuple(snapshot(first).engagements[0])
    start1 = gambit_rows.duel_start(first, combat, "red", "a/1", "b/1")
    best1, _ = gambit_rows.policy_pair(start1)
    assert len(walks) > 0
    done = len(walks)
    start2 = gambit_rows.duel_start(second, combat, "red", "a/1", "b/1")
    best2, _ = gambit_rows.policy_pair(start2)
    assert len(walks) == done and best2 == best1
    # and the same gambit search asked again at every question walks nothing either
    gambit_rows.best_gambit(start2, "red", ["Guard Up", "Test the Foe"], {}, [])
    n = len(walks)
    gambit_rows.best_gambit(start2, "red", ["Guard Up", "Test the Foe"], {}, [])
    assert len(walks) == n


def test_a_round_is_keyed_by_the_wounds_removed_not_the_unsaved_wounds():
    # red's 3 unsaved wounds and 4 unsaved wounds on a model with 2 Wounds left both remove 2
    # Wounds: the duel goes on alike (the count only feeds the `wounds` event)
    from tabletop.rules.challenges.gambit_rows import Round

    def duel(unsaved):
        rnd = Round(1, "red", "red", chosen=(("red", GUARD), ("blue", TEST)), winner="red",
                    struck=(("red", unsaved, None, 2),))
        return GambitChallenge(("a", "b"), "a/1", "b/1", ("red", "blue"), round_no=1, round=rnd)
    assert duel(3) != duel(4) and duel(3).key() == duel(4).key() == duel(3).ahead()
    assert duel(3).key() != GambitChallenge(("a", "b"), "a/1", "b/1", ("red", "blue"), round_no=1,
                                            round=Round(1, "red", "red", winner="red",
                                                        struck=(("red", 1, None, 1),))).key()


def test_the_resolution_places_once_per_table(monkeypatch):
    # the Resolution's placements are a pure function of the table and the returning models:
    # a second end of the Fight step equal to the first (another road of the walk, another
    # sampled run) reuses them, with the same table and events
    from tabletop.geometry import snapshot
    from tabletop.rules.challenges import gambit_rows

    calls = []
    real = gambit_rows.find_return_spot
    monkeypatch.setattr(gambit_rows, "find_return_spot", lambda *a, **k: calls.append(1) or real(*a, **k))
    # a table of its own (the plans are kept for the process): the pairs 1.26" apart at x = 30, 32
    a = unit("a", "red", [model(30.0, 10.0, role="champion", profile=HERO), model(32.0, 10.0)],
             profile=TROOPER, weapons=[BLADE])
    b = unit("b", "blue", [model(30.0, 11.26, role="champion", profile=HERO), model(32.0, 11.26)],
             profile=TROOPER, weapons=[BLADE])
    s = battlefield([a, b])
    combat = tuple(snapshot(s).engagements[0])
    after, ch = gambit_rows.set_aside(s, combat, "a/1", "b/1", ("red", "blue"))
    one, ev1 = gambit_rows.return_models(after, (ch,))
    first = len(calls)
    assert first >= 2                        # a/1 and b/1 placed
    two, ev2 = gambit_rows.return_models(after, (ch,))
    assert len(calls) == first
    assert [m.at for m in two.models()] == [m.at for m in one.models()]
    assert [e.data for e in ev2[:-1]] == [e.data for e in ev1[:-1]]
    assert {m.id for m in two.models()} == {"a/1", "a/2", "b/1", "b/2"}


def _counting_spots(monkeypatch):
    """find_return_spot counted per model placed: {model id: calls}."""
    from tabletop.rules.challenges import gambit_rows

    calls: dict[str, int] = {}
    real = gambit_rows.find_return_spot

    def spot(state, m, *a, **k):
        calls[m.id] = calls.get(m.id, 0) + 1
        return real(state, m, *a, **k)
    monkeypatch.setattr(gambit_rows, "find_return_spot", spot)
    return calls


def test_the_resolution_places_once_per_placement_whatever_the_wounds(monkeypatch):
    # where the set-aside models go reads where the models stand, never their wounds: a second
    # end of the Fight step that differs only in a/2 having lost a wound (W 2) places nothing
    # again, and a/2 keeps its wound
    from dataclasses import replace

    from tabletop.geometry import snapshot
    from tabletop.rules.challenges import gambit_rows

    calls = _counting_spots(monkeypatch)
    tough = {**TROOPER, "W": 2}
    # a table of its own (the plans are kept for the process): the pairs 1.26" apart at x = 50, 52
    a = unit("a", "red", [model(50.0, 10.0, role="champion", profile=HERO),
                          model(52.0, 10.0, profile=tough)], profile=TROOPER, weapons=[BLADE])
    b = unit("b", "blue", [model(50.0, 11.26, role="champion", profile=HERO),
                           model(52.0, 11.26, profile=tough)], profile=TROOPER, weapons=[BLADE])
    s = battlefield([a, b])
    combat = tuple(snapshot(s).engagements[0])
    after, ch = gambit_rows.set_aside(s, combat, "a/1", "b/1", ("red", "blue"))
    one, _ = gambit_rows.return_models(after, (ch,))
    placed = sum(calls.values())
    assert calls["a/1"] >= 1 and calls["b/1"] >= 1
    wounded = after.with_models([replace(after.model("a/2"), wounds_lost=1)])
    two, _ = gambit_rows.return_models(wounded, (ch,))
    assert sum(calls.values()) == placed            # no model placed again
    assert [m.at for m in two.models()] == [m.at for m in one.models()]
    assert two.model("a/2").wounds_lost == 1 and one.model("a/2").wounds_lost == 0


def test_the_resolution_places_a_first_returning_model_once_for_every_plan_it_begins(monkeypatch):
    # the Challenger returns first (RETURN_ORDER): on one table, the plan "a/1 alone" (b/1 slain
    # in the duel) and the plan "a/1, then b/1" (both alive) place a/1 on the same table the same
    # way, so a/1 is placed once for both: 1 call for a/1 (it was 2, one per plan), and b/1's
    # own placement (at least 1 call)
    from dataclasses import replace

    from tabletop.geometry import snapshot
    from tabletop.rules.challenges import gambit_rows

    calls = _counting_spots(monkeypatch)
    # a table of its own (the plans are kept for the process): the pairs 1.26" apart at x = 60, 62
    a = unit("a", "red", [model(60.0, 10.0, role="champion", profile=HERO), model(62.0, 10.0)],
             profile=TROOPER, weapons=[BLADE])
    b = unit("b", "blue", [model(60.0, 11.26, role="champion", profile=HERO), model(62.0, 11.26)],
             profile=TROOPER, weapons=[BLADE])
    s = battlefield([a, b])
    combat = tuple(snapshot(s).engagements[0])
    after, ch = gambit_rows.set_aside(s, combat, "a/1", "b/1", ("red", "blue"))
    alone, _ = gambit_rows.return_models(after, (replace(ch, removed=("b/1",)),))
    assert calls == {"a/1": 1}                      # engaged with b/2 at once: no second pass
    both, _ = gambit_rows.return_models(after, (ch,))
    assert calls["a/1"] == 1 and calls["b/1"] >= 1
    assert both.model("a/1").at == alone.model("a/1").at
    assert not alone.has_unit("b") or "b/1" not in {m.id for m in alone.models()}


def test_the_resolution_plans_apart_tables_whose_rules_differ():
    # one placement, two [rules]: with the 2" engagement range a/1 goes back where it stood
    # (6, 6), engaged with b/2 at (8, 7.26): sqrt(2^2 + 1.26^2) - 1.26 = 1.10" edge to edge
    # (32mm bases).  With a 1" range that spot is not engaged (1.10 > 1 + 0.02 tolerance), so
    # a/1 goes to the nearest spot within 1.02" of b/2 instead: the plan made for the first
    # table is not the second's
    import math

    from tabletop.geometry import snapshot
    from tabletop.rules.challenges import gambit_rows

    def table(rules):
        a = unit("a", "red", [model(6.0, 6.0, role="champion", profile=HERO), model(8.0, 6.0)],
                 profile=TROOPER, weapons=[BLADE])
        b = unit("b", "blue", [model(6.0, 7.26, role="champion", profile=HERO),
                               model(8.0, 7.26)], profile=TROOPER, weapons=[BLADE])
        return battlefield([a, b], rules=rules)

    placed = {}
    for rng in (2.0, 1.0):
        s = table({"engagement_range": rng})
        after, ch = gambit_rows.set_aside(s, tuple(snapshot(s).engagements[0]), "a/1", "b/1",
                                          ("red", "blue"))
        back, _ = gambit_rows.return_models(after, (gambit_rows._upd(ch, removed=("b/1",)),))
        placed[rng] = back.model("a/1").at
    assert placed[2.0] == (6.0, 6.0)
    x, y = placed[1.0]
    assert placed[1.0] != (6.0, 6.0)
    assert math.hypot(x - 8.0, y - 7.26) - 1.26 <= 1.02 + 1e-9
