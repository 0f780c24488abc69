"""The rank-and-flank events in words (rules/rank_and_flank/wording.py): captions and the CLI.

Every event type the ruleset emits reads as its own sentence through
``tabletop.rules.describe.describe`` (no generic "Combat score: scores ..."), the
frames' captions use it, and the CLI prints the same words with an indent and the clause.
"""

from __future__ import annotations

from pathlib import Path

from rnf_maps import B25 as B
from rnf_maps import rnf_map, run, unit

from tabletop.board import mapfile
from tabletop.cli.event_text import lines
from tabletop.render.steps import caption_sentences
from tabletop.rules.describe import describe, generic
from tabletop.rules.rank_and_flank.wording import SENTENCES, SILENT

A_WINS = [6, 6, 6, 6, 6, 6, 1, 1, 1, 1] + [1, 1, 1, 1, 4, 4] + [1] * 10   # see test_rules_rnf_round


def flee_run():
    # a: red 5 x 4, b: blue 5 x 4 on its front; b loses 6 - 2 and breaks on 3 + 4 = 7 > 5
    state = rnf_map(unit("a", "red", (24, 24), 90, 5, 4), unit("b", "blue", (24, 24), 270, 5, 4))
    return run(state, A_WINS + [3, 4])


def turn_run():
    # tests/scenarios/rnf_turn_keeps_contact.toml: every die a 1; a turns to face c
    state = mapfile.load(str(Path(__file__).parent / "scenarios" / "rnf_turn_keeps_contact.toml"))
    return run(state, [1] * 10)


def test_every_rank_and_flank_event_reads_as_its_own_sentence():
    seen = set()
    for _, log, _ in (flee_run(), turn_run()):
        for ev in log.events:
            text = describe(ev)
            if ev.type in SILENT:                   # a fact the lines around it tell
                assert text == "", ev.type
            elif ev.type in SENTENCES:
                seen.add(ev.type)
                assert text and text != generic(ev) and text.endswith("."), ev.type
    assert {"engagements", "engagement", "unit_geometry", "attackers", "blows", "combat_score",
            "break_test", "fled", "turned_to_face"} <= seen


def test_sentences_worked_by_hand():
    _, log, _ = flee_run()
    by = {}
    for ev in log.events:
        by.setdefault(ev.type, ev)
    # a's blows: 10 dice, six 6s at 4+; b's saves [1,1,1,1,4,4]: 4 failed
    assert describe(by["blows"]) == ("a -> b: 10 dice, 4+ to hit, 6 hits, saves on 4+, "
                                     "4 failed = 4 wounds.")
    assert describe(by["combat_score"]) == "Combat score: red 6, blue 2; won by red, by 4."
    assert describe(by["break_test"]) == ("b break test: 2D6 3+4 = 7 against Discipline 7 + "
                                          "ranks 2 - difference 4 = 5: breaks.")
    assert describe(by["fled"]).startswith(
        "b flees 4.0\" directly away from a (heading 90 deg, opposite its front ")
    assert describe(by["break_test"], with_rule=True).endswith(
        "  (rank-and-flank-combat.txt Break tests)")
    # the caption of the break test's frame reads the same sentences
    step = next(s for s in log.steps if "break test" in s.title)
    sentences = caption_sentences([log.events[i] for i in step.events])
    assert describe(by["break_test"]) in sentences and describe(by["fled"]) in sentences


def test_the_cli_prints_the_same_words_indented_with_the_clause_and_the_breakdown():
    _, log, _ = flee_run()
    score = next(ev for ev in log.events if ev.type == "combat_score")
    out = lines(score)
    assert out[0] == ("Combat score: red 6, blue 2; won by red, by 4.  "
                      "(rank-and-flank-combat.txt Combat score)")
    # a: 4 wounds + 2 ranks; b: 2 ranks (its rank 4 holds 1 after 4 casualties)
    assert out[1:] == ["    red: a wounds caused +4",
                       "    red: a ranks +2 (2 ranks of 5+ behind the front)",
                       "    blue: b ranks +2 (2 ranks of 5+ behind the front)"]
    blows = next(ev for ev in log.events if ev.type == "blows")
    assert lines(blows) == ["  " + describe(blows)]


def test_turn_sentences():
    _, log, _ = turn_run()
    (turn,) = [ev for ev in log.events if ev.type == "turned_to_face"]
    assert describe(turn) == "a turns to face c on its left flank, its new front on c."
    # blocked: a red unit d east of a (see test_geometry_turns.blocked_state)
    data = mapfile.to_dict(mapfile.load(str(Path(__file__).parent / "scenarios"
                                             / "rnf_turn_keeps_contact.toml")))
    data["units"].append(unit("d", "red", (24 + 3 * B, 24), 90, 2, 3))
    _, log2, _ = run(mapfile.from_dict(data), [1] * 10)
    (blocked,) = [ev for ev in log2.events if ev.type == "turn_blocked"]
    assert describe(blocked).startswith(
        "a cannot turn to face c and stays as it is: it would overlap d/1, d/2, d/3, d/4")
