"""Wording of the rules' sentences (issue 10 leftovers): counts agree with their noun
("1 hit", "2 hits") and a winner's id, which may be singular ("empire") or plural ("orcs"),
never has to agree with a verb ("won by orcs, by 3", not "orcs wins by 3")."""

from __future__ import annotations

from loose_events import any_event as make_event

import tabletop.rules.challenges  # noqa: F401  (registers the challenge sentences)
from tabletop.geometry import snapshot
from tabletop.rules.describe import describe
from tabletop.rules.rank_and_flank.wording import verdict


def test_a_combat_verdict_needs_no_verb_to_agree_with_the_winner():
    assert verdict("orcs", 3) == "won by orcs, by 3"
    assert verdict("empire", 1) == "won by empire, by 1"
    assert verdict(None, 0) == "a tie: nobody tests"
    ev = make_event("combat_score", "rank-and-flank-combat.txt Combat score",
                    {"scores": {"empire": 3, "orcs": 6}, "winner": "orcs", "difference": 3,
                     "breakdown": {}})
    assert describe(ev) == "Combat score: empire 3, orcs 6; won by orcs, by 3."


def test_one_hit_one_wound_one_model():
    ev = make_event("wounds", "gambit-challenge.txt Step 4 (Strike)",
                    {"by": "tac/4", "model": "breachers/4", "hits": 1, "wounds": 1, "unsaved": 0,
                     "lost": 0, "wounds_left": 2})
    assert describe(ev) == "tac/4 -> breachers/4: 1 hit, 1 wound, 0 unsaved, 0 Wounds lost (2 left)"
    ev = make_event("set_aside", "gambit-challenge.txt Step 1", {"models": ["tac/4"]})
    assert describe(ev) == "tac/4 is set aside, out of play"
    ev = make_event("set_aside", "gambit-challenge.txt Step 1", {"models": ["tac/4", "b/1"]})
    assert describe(ev) == "tac/4 and b/1 are set aside, out of play"
    ev = make_event("outside_support", "character-challenge.txt Outside support",
                    {"player": "red", "models": ["a/2"], "counted": 1, "bonus": 0})
    assert describe(ev).startswith("outside support for red: 1 model counted")


def test_the_window_says_1_model_for_a_lone_model(write_map):
    from tabletop.app.text import model_lines
    from tabletop.board import mapfile
    path = write_map("""
        [map]
        name = "one"
        ruleset = "fight-phase"
        width = 20
        depth = 20
        [[players]]
        id = "red"
        active = true
        [[units]]
        id = "hero"
        player = "red"
        base = "40mm"
        models = [[5, 5]]
        """)
    state = mapfile.load(path)
    assert "unit: hero (hero), player red, 1 model" in model_lines(state, snapshot(state), "hero/1")
