"""Events in words (tabletop.rules.describe): a sentence for every event type the Fight
phase emits, the generic form for other types, and the one table of wordings."""

from __future__ import annotations

from pathlib import Path

import pytest
from loose_events import any_event as make_event

from tabletop.cli.event_text import lines
from tabletop.rules import describe as d
from tabletop.rules.describe import describe, describer_types, describers, generic

MAPS = Path(__file__).resolve().parent.parent / "maps"
R = "fight-phase.txt 12.03"


def ev(type, rule="", **data):
    return make_event(type, rule, data)


@pytest.mark.parametrize("event, sentence", [
    (ev("phase_step", step="start", title="Start of the Fight phase", player="marines",
        engaged=[["assault", "boyz"], ["captain", "nobz"]]),
     "Start of the Fight phase, marines' turn: 2 pairs of units are engaged "
     "(assault, boyz, captain and nobz)."),
    (ev("phase_step", step="start", player="red", engaged=[["a", "b"]]),
     "Start of the Fight phase, red's turn: 1 pair of units is engaged (a and b)."),
    (ev("phase_step", step="pile_in", title="Pile in", player="red"),
     "Pile-in step: red (whose turn it is) piles in first, then the opponent."),
    (ev("phase_step", step="fight", title="Fight", player="red", eligible=["a", "b", "c"]),
     "Fight step: 3 units are eligible to fight (a, b and c)."),
    (ev("phase_step", step="consolidate", title="Consolidate", player="red"),
     "Consolidation step: red (whose turn it is) consolidates first, then the opponent."),
    (ev("phase_step", step="end", title="End of the Fight phase", selected=["a"]),
     "End of the Fight phase: 1 unit fought (a)."),
    (ev("combat_step", step="fights_first", title="Resolve Fights First Combats", player="red",
        reason="the Fight step starts with the player whose turn it is"),
     "Resolve Fights First Combats: red selects next (the Fight step starts with the player "
     "whose turn it is)."),
    (ev("combat_step", step="end", title="The Fight step ends", player="blue",
        reason="no unit is eligible to fight"),
     "The Fight step ends: no unit is eligible to fight."),
    (ev("pass", player="blue", step="remaining", reason="no eligible unit to select"),
     "blue has no eligible unit to select, so the other player selects."),
    (ev("selected_to_fight", unit="a", player="red", fight="normal", step="fights_first",
        fights_first=True),
     "red selects a to fight: a normal fight. It is a Fights First unit."),
    (ev("selected_to_fight", unit="a", player="red", fight="overrun", fights_first=False),
     "red selects a to fight: an overrun fight."),
    # 3 models moved, the longest 2.999" -> 3.00"
    (ev("pile_in", R, unit="a", player="red", mode="pile_in", targets=["b"],
        moves={"a/1": [[0, 0], [1, 0]], "a/2": [[0, 1], [2, 1]], "a/3": [[0, 2], [3, 2]]},
        distances={"a/1": 1.0, "a/2": 2.0, "a/3": 2.999}, violations=[]),
     "red piles in with a toward b: 3 models move, the longest 3.00\"."),
    (ev("pile_in", R, unit="a", player="red", mode="pile_in", targets=["b", "c"], moves={},
        distances={}, violations=[]),
     "red piles in with a toward b and c: no model moves (each is in base contact with an "
     "enemy model, or no move gets it engaged or 0.1\" closer)."),
    (ev("consolidate", unit="a", player="red", mode="ongoing", targets=["b"],
        moves={"a/1": [[0, 0], [0.5, 0]]}, distances={"a/1": 0.5}, violations=[]),
     "red consolidates a toward b (ongoing consolidation): 1 model moves, the longest 0.50\"."),
    (ev("no_move", unit="a", player="red", mode="ongoing", targets=[],
        reason="a is not engaged and no enemy unit and no objective is within 3\"", violations=[]),
     "a makes no consolidation move: a is not engaged and no enemy unit and no objective is "
     "within 3\"."),
    (ev("no_move", unit="a", player="red", mode="pile_in", targets=["b"], reason="no legal move",
        violations=[{"model": "a/1", "clause": "12.03", "message": "a/1 ends further from b"}]),
     "a makes no pile-in move: no legal move (the solver's move breaks 1 rule: a/1 ends further "
     "from b)."),
    (ev("roll", purpose="hit roll: a Choppa x3 at b", dice=[6, 2, 4], modifiers={}, target=3,
        result=2, player="red"),
     "Hit roll (red) - a Choppa x3 at b: rolled 6 2 4 needing 3+ -> 2."),
    (ev("roll", purpose="armour save: b/1", dice=[5], modifiers={"AP": -1}, target=4,
        result="saved", player="blue"),
     "Armour save (blue) - b/1, AP -1: rolled 5 needing 4+ -> saved."),
    (ev("roll", purpose="hit roll: a x40 at b", dice=[3] * 40, modifiers={}, target=3, result=40,
        player="red"),
     "Hit roll (red) - a x40 at b: 40 dice needing 3+ -> 40."),
    (ev("attacks_resolved", unit="a", player="red", target="b", weapon="Choppa", models=["a/1"],
        attacks=3, hits=1, wounds=1, unsaved=1, removed=["b/1"]),
     "a attacks b with Choppa: 3 attacks, 1 hit, 1 wound, 1 unsaved; 1 model removed (b/1)."),
    (ev("attacks_resolved", unit="a", player="red", target="b", weapon="Choppa", models=[],
        attacks=0, hits=0, wounds=0, unsaved=0, removed=[],
        note="b was destroyed before these attacks: they are lost"),
     "a attacks b with Choppa: 0 attacks, 0 hits, 0 wounds, 0 unsaved - b was destroyed "
     "before these attacks: they are lost."),
    (ev("wounded", model="b/1", unit="b", damage=2, wounds_lost=2, wounds_left=1),
     "b/1 takes 2 damage (2 wounds lost, 1 left)."),
    (ev("removed", model="b/1", unit="b", by="a"), "b/1 is removed as a casualty (attacked by a)."),
    (ev("destroyed", unit="b", reason="its last model was removed as a casualty (attacks by a)"),
     "b is destroyed: its last model was removed as a casualty (attacks by a)."),
    (ev("no_save", model="b/1", player="blue", needed=8,
        reason="Sv 6+ with AP -2 needs 8+: no save is possible"),
     "b/1 gets no save: Sv 6+ with AP -2 needs 8+: no save is possible."),
    (ev("no_attacks", unit="a", model="a/2", player="red",
        reason="the model has no melee weapon (no weapon with a WS)"),
     "a/2 makes no attacks: the model has no melee weapon (no weapon with a WS)."),
    (ev("eligible_to_fight", unit="b", player="blue",
        reason="engaged by a's engaging consolidation and not yet selected"),
     "blue's b becomes eligible to fight: engaged by a's engaging consolidation and not yet "
     "selected."),
    (ev("decision_overridden", player="red", choice="fight", value="z", reason="z is not eligible"),
     "red's scripted fight = 'z' is overridden: z is not eligible."),
    (ev("decision", player="red", choice="fight", value="a"), ""),
])
def test_fight_phase_events_in_words(event, sentence):
    assert describe(event) == sentence


def test_with_rule_appends_the_clause():
    e = ev("removed", "fight-phase.txt 12.05", model="b/1", by="a")
    assert describe(e, with_rule=True) == \
        "b/1 is removed as a casualty (attacked by a).  (fight-phase.txt 12.05)"
    assert describe(ev("removed", model="b/1"), with_rule=True) == "b/1 is removed as a casualty."


def test_unknown_types_read_generically_and_the_table_is_built_in_one_place():
    e = ev("banner_score", "a-ruleset.txt 5", unit="a", score=3, ranks=[1, 2], sides={"front": 2})
    assert describe(e) == "Banner score: unit a, score 3, ranks 1 and 2, sides {front: 2}."
    assert generic(ev("rallied")) == "Rallied."
    # the table is the Fight phase's, the rank-and-flank ruleset's and the challenges' wordings,
    # read-only: nothing can register into it
    from tabletop.rules.challenges.wording import SENTENCES as CH
    from tabletop.rules.rank_and_flank.wording import SENTENCES as RNF
    table = describers()
    assert set(table) == set(d.FIGHT_PHASE_SENTENCES) | set(RNF) | set(CH) == set(describer_types())
    assert table["combat_score"] is RNF["combat_score"] and table["prolong"] is CH["prolong"]
    with pytest.raises(TypeError):
        table["banner_score"] = lambda x: ""  # type: ignore[index]
    # a wording that needs a field the event lacks falls back to the generic form
    assert describe(ev("challenge_issued", player="red")) == "Challenge issued: player red."


def test_every_event_of_a_resolved_fight_has_its_own_wording():
    from tabletop.board import mapfile
    from tabletop.cli.fight_cmd import resolve
    res = resolve(mapfile.load(str(MAPS / "lessons/pile-in.toml")), seed=1)
    types = {e.type for e in res.log.events}
    assert types <= set(d.FIGHT_PHASE_TYPES) <= set(describer_types())
    for e in res.log.events:
        text = describe(e)
        assert text == "" or (text[-1] in '."' and "_" not in text.split(":")[0]), text


def test_cli_lines_indent_and_list_each_moved_model():
    e = ev("pile_in", R, unit="a", player="red", mode="pile_in", targets=["b"],
           moves={"a/1": [[1.0, 2.0], [2.5, 2.0]]}, distances={"a/1": 1.5}, violations=[])
    assert lines(e) == ['red piles in with a toward b: 1 model moves, the longest 1.50".  (' + R + ")",
                        '    a/1: (1, 2) -> (2.5, 2), 1.50"']
    roll = ev("roll", R, purpose="hit roll: a", dice=[4], target=3, result=1, player="red")
    assert lines(roll) == ["    Hit roll (red) - a: rolled 4 needing 3+ -> 1."]
