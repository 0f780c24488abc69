"""Glory points of gambit challenges as a full distribution (issue 9; gambit-challenge.txt,
Glory Step): ``PairOdds.points_dist`` / ``points_at_least`` read the same walk as the win and
draw chances; the ``--json`` keys ``points_dist``, ``points_at_least`` (and ``..._exact``) and the
text line of the default policy's pair.  A one-round duel worked out by hand, exact fractions;
the invariants (sums to 1, mean = expected points, at least 0 = 1, non-increasing) on random
duels and on the gambit lesson's whole table."""

from __future__ import annotations

from fractions import Fraction

from challengekit import battlefield, model, unit
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.board import mapfile
from tabletop.geometry import snapshot
from tabletop.rules.challenges.gambit_rows import duel_start, odds_summary, pair_odds
from tabletop.rules.challenges.gambits import GUARD, TEST, allowed
from tabletop.rules.challenges.report import challenge_odds, odds_lines, points_line

HERO = {"WS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1, "Ld": 8, "Sv": 3}
BLADE = [{"name": "Blade"}]
LESSON = "maps/lessons/gambit-challenge.toml"


def lone_pair(red=None, blue=None, **kw):
    """Two lone champions in base contact (no outside support: their units leave with them)."""
    a = unit("a", "red", [model(10.0, 10.0, role="champion")], profile={**HERO, **(red or {})}, weapons=BLADE)
    b = unit("b", "blue", [model(10.0, 11.26, role="champion")], profile={**HERO, **(blue or {})},
             weapons=BLADE)
    return battlefield([a, b], **kw)


def start_of(s):
    return duel_start(s, tuple(snapshot(s).engagements[0]), "red", "a/1", "b/1")


def check_invariants(o):
    """Every player's points distribution: sums to 1, its mean is the expected points, at least 0
    is 1, the tail never rises, and at least 1 is the win chance (a winner always scores: base
    Wounds >= 1 or more Wounds caused than the other, Glory Step)."""
    for p in o.win:
        dist, tail = o.points_dist(p), o.points_at_least(p)
        assert sum(dist.values()) == 1
        assert sum(k * v for k, v in dist.items()) == o.points[p]
        assert tail[0] == 1
        ks = sorted(tail)
        assert ks == list(range(0, max(dist) + 1))
        assert all(tail[a] >= tail[b] for a, b in zip(ks, ks[1:]))
        assert all(tail[k] == sum(v for j, v in dist.items() if j >= k) for k in ks)
        if max(dist) >= 1:
            assert tail[1] == o.win[p]


def test_points_distribution_by_hand():
    # red (Test the Foe: no bonus in the Focus or Strike Steps) A 2, W 1;
    # blue (Guard Up: WS 5, a single attack) A 1, W 2; both I 4, S 4, T 4, Sv 3+, Blade D 1.
    # Focus: D6 + 4 each, ties re-rolled: each takes the advantage (strikes first) half the time.
    # red's attack: WS 4 v 5 hits 4+ (1/2), wounds 4+ (1/2), save 3+ fails 1/3: 1/12 each,
    #   two attacks (Test the Foe: no +1 for the advantage): 0 wounds 121/144, 1 22/144, 2 1/144.
    # blue's one attack: WS 5 v 4 hits 3+ (2/3) x 1/2 x 1/3 = 1/9, and red (W 1) is removed.
    # Glory Step: a removed model gives the other its base Wounds (blue 2, red 1; champions are
    # neither Paragon nor Command); none removed: the one causing more Wounds scores them.
    # red first (1/2): 2 wounds (1/144) blue removed, red 2 pts; 1 wound (22/144) then blue
    #   strikes: 1/9 red removed, blue 1 pt, else red 1 pt (1 Wound caused v 0); 0 wounds
    #   (121/144): blue 1 pt 1/9, else draw.
    # blue first (1/2): 1/9 red removed (blue 1 pt, red never strikes); else red strikes as above
    #   with no reply: 2 pts 1/144, 1 pt 22/144, draw 121/144.
    # red 2 pts = 1/2 * 1/144 + 1/2 * 8/9 * 1/144 = 17/2592
    # red 1 pt  = 1/2 * 22/144 * 8/9 + 1/2 * 8/9 * 22/144 = 176/1296 = 352/2592
    # blue 1 pt = 1/2 * 143/144 * 1/9 + 1/2 * 1/9 = 143/2592 + 144/2592 = 287/2592
    # draw      = 8/9 * 121/144 = 1936/2592; 17 + 352 + 287 + 1936 = 2592.
    o = pair_odds(start_of(lone_pair(red={"A": 2}, blue={"W": 2})), {"red": TEST, "blue": GUARD})
    assert o.outcomes == {("red", 2): Fraction(17, 2592), ("red", 1): Fraction(352, 2592),
                          ("blue", 1): Fraction(287, 2592), (None, 0): Fraction(1936, 2592)}
    assert o.points_dist("red") == {0: Fraction(2223, 2592), 1: Fraction(352, 2592),
                                    2: Fraction(17, 2592)}
    assert o.points_dist("blue") == {0: Fraction(2305, 2592), 1: Fraction(287, 2592)}
    assert o.points_at_least("red") == {0: 1, 1: Fraction(369, 2592), 2: Fraction(17, 2592)}
    assert o.points_at_least("blue") == {0: 1, 1: Fraction(287, 2592)}
    # the expected points the table already gave: red 2 x 17 + 352 = 386/2592, blue 287/2592
    assert o.points == {"red": Fraction(386, 2592), "blue": Fraction(287, 2592)}
    check_invariants(o)


def test_the_json_row_carries_the_distribution_and_tail():
    s = odds_summary(start_of(lone_pair(red={"A": 2}, blue={"W": 2})))
    row = next(r for r in s["pairs"] if r["gambits"] == {"red": TEST, "blue": GUARD})
    assert row["points_dist_exact"] == {"red": {"0": "247/288", "1": "11/81", "2": "17/2592"},
                                        "blue": {"0": "2305/2592", "1": "287/2592"}}
    assert row["points_at_least_exact"] == {"red": {"1": "41/288", "2": "17/2592"},
                                            "blue": {"1": "287/2592"}}
    assert row["points_dist"]["red"]["2"] == 17 / 2592
    assert row["points_at_least"]["blue"] == {"1": 287 / 2592}
    assert points_line(row, "red") == "0 pts 85.8%, 1 pt 13.6%, 2 pts 0.7%; at least 1 14.2%, 2 0.7%"
    assert points_line(row, "blue") == "0 pts 88.9%, 1 pt 11.1%; at least 1 11.1%"


def test_a_player_who_cannot_score_has_no_tail():
    # red S 1 v blue T 8: no Wound Test can succeed, so red never causes a Wound nor removes blue:
    # it never wins and scores 0 with chance 1 (Glory Step); its tail above 0 is empty.
    o = pair_odds(start_of(lone_pair(red={"S": 1}, blue={"T": 8})), {"red": GUARD, "blue": TEST})
    assert o.points_dist("red") == {0: 1} and o.points_at_least("red") == {0: 1}
    check_invariants(o)
    row = next(r for r in odds_summary(start_of(lone_pair(red={"S": 1}, blue={"T": 8})))["pairs"]
               if r["gambits"] == {"red": GUARD, "blue": TEST})
    assert row["points_at_least"]["red"] == {} and points_line(row, "red") == "0 pts 100.0%"


@settings(max_examples=12, deadline=None)
@given(st.integers(2, 7), st.integers(2, 7), st.integers(1, 3), st.integers(1, 3), st.integers(2, 6),
       st.sampled_from(allowed(True, [], [])), st.sampled_from(allowed(False, [], [])),
       st.booleans())
def test_points_distribution_invariants(ws_a, ws_b, w_a, a_b, sv, g1, g2, command):
    if g1 == g2:
        return
    red = {"WS": ws_a, "W": w_a}
    s = lone_pair(red=red, blue={"WS": ws_b, "A": a_b, "Sv": sv, "W": 2}, active="blue")
    if command:
        s = battlefield([unit("a", "red", [model(10.0, 10.0, role="commander")],
                              profile={**HERO, **red}, weapons=BLADE),
                         unit("b", "blue", [model(10.0, 11.26, role="champion")],
                              profile={**HERO, "WS": ws_b, "A": a_b, "Sv": sv, "W": 2}, weapons=BLADE)],
                        active="blue")
    check_invariants(pair_odds(start_of(s), {"red": g1, "blue": g2}))


def test_the_lesson_table_every_pair():
    rep = challenge_odds(mapfile.load(LESSON))
    (rec,) = rep["combats"]
    for row in rec["pairs"] + [rec["policy"]]:
        for p in rec["players"]:
            dist = {int(k): Fraction(v) for k, v in row["points_dist_exact"][p].items()}
            assert sum(dist.values()) == 1
            assert abs(float(sum(k * v for k, v in dist.items())) - row["expected_points"][p]) < 1e-12
            tail = {int(k): Fraction(v) for k, v in row["points_at_least_exact"][p].items()}
            assert tail == {k: sum(v for j, v in dist.items() if j >= k) for k in range(1, max(dist) + 1)}
            assert all(tail[k] >= tail[k + 1] for k in range(1, max(dist)))
            assert abs(tail.get(1, 0) - row["win"][p]) < 1e-12
            assert row["points_dist"][p] == {k: float(Fraction(v)) for k, v in row["points_dist_exact"][p].items()}
    text = "\n".join(odds_lines(rep))
    assert "glory points this round under the default policy" in text
    for p in rec["players"]:
        assert f"    {p:<4}  {points_line(rec['policy'], p)}" in text


def test_the_odds_table_uses_the_maps_scripted_weapon(capsys):
    # re-audit 9: with blue's weapon scripted as the Power sword, the challenge odds still
    # showed (and worked out) the default Power fist; the fight itself used the sword
    import tomllib
    from pathlib import Path

    from tabletop.board.mapfile import from_dict
    from tabletop.rules.challenges.report import challenge_odds
    src = Path(__file__).resolve().parents[1] / "maps" / "lessons" / "gambit-challenge.toml"
    data = tomllib.loads(src.read_text(encoding="utf-8"))
    plain = challenge_odds(from_dict(dict(data)))
    data["decisions"] = list(data.get("decisions", [])) + [
        {"player": "blue", "choice": "weapon", "value": "power SWORD"}]
    sword = challenge_odds(from_dict(data))
    assert plain["combats"][0]["weapons"]["blue"] == "Power fist"
    assert sword["combats"][0]["weapons"]["blue"] == "Power sword"
    # the sword (S5, A3) and the fist differ, so the same gambit pair's odds do too
    assert sword["combats"][0]["pairs"][0]["win"] != plain["combats"][0]["pairs"][0]["win"]
