"""What the gambit odds keep, and by what (issue 9, the gambit lesson's odds under 1 s): a round's
Strike Step is walked once for every gambit pair that reaches it alike
(``gambit_rows.strike_key``); a model returned in the Resolution keeps its spot and its
engagement by the models near it (``gambit_rows._return_spot``, ``_engaged_flags``); and the
character challenge's row reads one snapshot per table (``challenges.tables``).  Every kept
answer is the answer worked out afresh.

Two lone champions in base contact (32mm bases 1.26" apart): WS 4, S 4, T 4, W 1, I 4, A 1,
Sv 3+; red issued and chooses first.
"""

from __future__ import annotations

from fractions import Fraction

from challengekit import battlefield, harness, model, unit

from tabletop.geometry import snapshot
from tabletop.geometry.placement import find_return_spot
from tabletop.rules.challenges import gambit_rows
from tabletop.rules.challenges.gambits import FEINT, SEIZE, TEST

HERO = {"WS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1, "Ld": 8, "Sv": 3}
BLADE = [{"name": "Blade"}]


def lone_pair():
    a = unit("a", "red", [model(10.0, 10.0, role="champion")], profile=HERO, weapons=BLADE)
    b = unit("b", "blue", [model(10.0, 11.26, role="champion")], profile=HERO, weapons=BLADE)
    return battlefield([a, b])


def fresh_caches(monkeypatch):
    """Nothing kept from another test (the caches are module-wide)."""
    for name in ("_PAIRS", "_CHOICES", "_STRIKES", "_SPOTS", "_FLAGS"):
        monkeypatch.setattr(gambit_rows, name, {})


def test_two_gambit_pairs_that_reach_the_same_strike_step_share_its_walk(monkeypatch):
    # Each attack is an unsaved wound with q = 1/2 (WS 4 v 4 hits 4+) x 1/2 (S 4 v T 4 wounds 4+)
    # x 1/3 (Sv 3+ fails on 1-2) = 1/12.  The Focus winner strikes first with +1 attack, but
    # Test the Foe takes no bonus.  Red with the advantage: 2 attacks, P(removes blue) =
    # 1 - (11/12)^2 = 23/144; else (121/144) blue's 1 attack: 121/1728.  Blue with it: 1 attack,
    # 1/12; else red's 1 attack: 11/12 x 1/12 = 11/144.  Seize the Initiative and Feint and
    # Riposte change nothing in the Strike Step, so from each Focus winner the two pairs strike
    # alike: two Strike Step walks (red first, blue first) serve both.
    fresh_caches(monkeypatch)
    walks = []
    real = gambit_rows.walk.exact
    monkeypatch.setattr(gambit_rows.walk, "exact",
                        lambda machine, *a, **k: walks.append(machine) or real(machine, *a, **k))
    s = lone_pair()
    start = gambit_rows.duel_start(s, tuple(snapshot(s).engagements[0]), "red", "a/1", "b/1")
    full = gambit_rows.machine()

    # Seize the Initiative (2D6 keep the highest, +4) v Test the Foe (D6 + 4): red takes the
    # advantage sum_k (2k-1)/36 x (k-1)/6 = 125/216, blue sum_k (2k-1)/36 x (6-k)/6 = 55/216, ties
    # re-rolled: 125/180 = 25/36 and 11/36.
    seize = gambit_rows.pair_odds(start, {"red": SEIZE, "blue": TEST})
    # red: 25/36 x 23/144 + 11/36 x 11/144 = 696/5184 = 29/216
    # blue: 25/36 x 121/1728 + 11/36 x 1/12 = 3025/62208 + 1584/62208 = 4609/62208
    assert seize.win == {"red": Fraction(29, 216), "blue": Fraction(4609, 62208)}
    assert seize.draw == 1 - Fraction(29, 216) - Fraction(4609, 62208)
    assert seize.points == seize.win                       # base Wounds 1 per win
    assert sum(m is full for m in walks) == 2              # a Strike Step from each Focus winner

    # Feint and Riposte (D6 + 4) v Test the Foe: each takes the advantage half the time.
    feint = gambit_rows.pair_odds(start, {"red": FEINT, "blue": TEST})
    # red: 1/2 x (23/144 + 11/144) = 17/144; blue: 1/2 x (121/1728 + 144/1728) = 265/3456
    assert feint.win == {"red": Fraction(17, 144), "blue": Fraction(265, 3456)}
    assert sum(m is full for m in walks) == 2              # its Face-Off and Focus only: no new Strike


# ---------------------------------------------------------------- the Resolution, kept locally
def returning_table():
    """Red squad a (a/1 the Challenger, set aside from (10, 10); a/2 at (8.74, 10), a/3 at
    (7.48, 10)), blue squad b in base contact north of the Challenger's spot (b/1 (10, 11.26),
    b/2 (11.26, 11.26)) and a red bystander c/1 far off at (40, 25)."""
    a = unit("a", "red", [model(10.0, 10.0, role="champion"), model(8.74, 10.0), model(7.48, 10.0)],
             profile=HERO, weapons=BLADE)
    b = unit("b", "blue", [model(10.0, 11.26), model(11.26, 11.26)], profile=HERO, weapons=BLADE)
    c = unit("c", "red", [model(40.0, 25.0)], profile=HERO, weapons=BLADE)
    full = battlefield([a, b, c])
    return full, full.model("a/1"), full.without_models(["a/1"])


def counting_searches(monkeypatch):
    calls = []
    monkeypatch.setattr(gambit_rows, "find_return_spot",
                        lambda *a, **k: calls.append(1) or find_return_spot(*a, **k))
    return calls


def test_a_returning_models_spot_is_kept_by_the_models_near_where_it_stood(monkeypatch):
    fresh_caches(monkeypatch)
    calls = counting_searches(monkeypatch)
    _, a1, aside = returning_table()
    origin = (10.0, 10.0)
    # where it stood is free, on the table, 1.26" from a/2 (coherent within 2") and in base
    # contact with b/1 (engaged): the nearest legal, engaged spot is the spot itself (distance 0)
    spot = gambit_rows._return_spot(aside, a1, "red", ("b",), origin)
    assert spot is not None and spot.at == origin and spot.engaged
    assert len(calls) == 1
    # the bystander 30" away moves 3": nothing near the spot changed - no search, the same spot
    moved = aside.with_models([aside.model("c/1").moved_to(43.0, 25.0)])
    assert gambit_rows._return_spot(moved, a1, "red", ("b",), origin) == spot
    assert len(calls) == 1
    assert find_return_spot(moved, a1, "red", ("b",), prefer=origin) == spot
    # b/2, 1.78" from the spot, is removed: a model near the spot changed - searched again
    # (the spot itself is still legal and engaged with b/1: the same answer)
    fewer = aside.without_models(["b/2"])
    assert gambit_rows._return_spot(fewer, a1, "red", ("b",), origin) == spot
    assert len(calls) == 2
    # a/3 steps onto the spot: searched again, and the spot is elsewhere
    blocked = aside.with_models([aside.model("a/3").moved_to(10.0, 10.0)])
    other = gambit_rows._return_spot(blocked, a1, "red", ("b",), origin)
    assert len(calls) == 3
    assert other == find_return_spot(blocked, a1, "red", ("b",), prefer=origin)
    assert other is not None and other.at != origin


def test_a_returned_models_engagement_is_kept_by_the_models_near_it(monkeypatch):
    from tabletop.rules.fight_phase import context
    fresh_caches(monkeypatch)
    built = []
    real = context.moved_geometry
    monkeypatch.setattr(context, "moved_geometry", lambda *a: built.append(1) or real(*a))
    full, a1, aside = returning_table()
    # back at (10, 10): in base contact with b/1 (gap 0.00016" <= 2" + 0.02", the default
    # engagement range): engaged
    assert gambit_rows._engaged_flags(aside, full, [a1]) == (("a/1", True),)
    assert len(built) == 1
    # the bystander far off moves: the same answer, no snapshot
    far_aside = aside.with_models([aside.model("c/1").moved_to(43.0, 25.0)])
    far_full = full.with_models([full.model("c/1").moved_to(43.0, 25.0)])
    assert gambit_rows._engaged_flags(far_aside, far_full, [a1]) == (("a/1", True),)
    assert len(built) == 1
    # a/2, its own squad's model 1.26" away, is removed: only enemies engage it - no snapshot
    assert gambit_rows._engaged_flags(aside.without_models(["a/2"]), full.without_models(["a/2"]),
                                      [a1]) == (("a/1", True),)
    assert len(built) == 1
    # b/1 and b/2 step back 3": b/1 at (10, 14.26), centres 4.26" apart, gap 4.26 - 2 x 0.63 =
    # 3.0" > 2.02" (b/2 is farther): not engaged, and asked afresh (models near it moved)
    away = {"b/1": (10.0, 14.26), "b/2": (11.26, 14.26)}
    back_aside = aside.with_models([aside.model(k).moved_to(*xy) for k, xy in away.items()])
    back_full = full.with_models([full.model(k).moved_to(*xy) for k, xy in away.items()])
    assert gambit_rows._engaged_flags(back_aside, back_full, [a1]) == (("a/1", False),)
    assert len(built) == 2


# ---------------------------------------------------------------- the character challenge's snapshot
def test_the_character_challenge_row_reads_one_snapshot_per_table(monkeypatch):
    from test_rules_challenge_character import COMBAT, rnf, spears, swords

    from tabletop.geometry.snapshot import Geometry
    from tabletop.rules.challenges.character import challenge_step
    from tabletop.rules.challenges.character_steps import issue
    from tabletop.rules.rank_and_flank.phase import geometry as round_geometry

    s = rnf(spears(), swords())
    built = []
    real = Geometry.__init__

    def init(self, state, *a, **k):
        built.append(state)
        real(self, state, *a, **k)
    monkeypatch.setattr(Geometry, "__init__", init)
    # a snapshot derived from the one built last (``kept_geometry``) counts as built too
    real_derive = Geometry._derive

    def derive(self, state, *a, **k):
        built.append(state)
        return real_derive(self, state, *a, **k)
    monkeypatch.setattr(Geometry, "_derive", derive)
    # the row runs again from the start for each answer (rank_and_flank.phase._asking): twice on
    # the same table, one snapshot of it
    for _ in range(2):
        log, dice, dec = harness(s)
        challenge_step(s, COMBAT, dice, dec, log)
    assert sum(t is s for t in built) == 1
    # within the round the row reads the round's own snapshot of the table: none of its own
    t = rnf(spears(), swords())
    round_geo = round_geometry(t)
    n = sum(x is t for x in built)
    log, dice, dec = harness(t)
    issue(t, list(COMBAT), dice, dec, log)
    assert sum(x is t for x in built) == n and round_geometry(t) is round_geo
