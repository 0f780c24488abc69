"""Scripted ``[[decisions]]`` that can never answer are map errors; refusals name the true reason.

Issue 9 audit, finding 1: an id on nothing on the map, a number for an id, an unknown fight
type, or the other player's unit went through as "overridden" with a wrong reason.  Now they
are refused when the map loads (``board/decision_checks.py``: one located line, exit 2, in
``fight``, ``fight --odds`` and ``check``), and a legal-shaped value the rules refuse when the
question comes is overridden with the true reason (``eligibility.fight_refusal``).
"""

from __future__ import annotations

import pytest
from fightkit import HEADER, unit

from tabletop.board import mapfile
from tabletop.board.decision_checks import FIGHT_TYPE_VALUES
from tabletop.cli import main
from tabletop.rules.dice import FixedDice
from tabletop.rules.fight_phase import fight
from tabletop.rules.fight_phase.eligibility import NORMAL, OVERRUN

# R1 (red, charged) touches B1 at y=3; R2 (red, NOT charged) touches B2 at y=9 (32mm bases,
# centres 1.26" apart: base contact).  No weapons (A=0): nothing rolls.
UNITS = (unit("R1", "red", [(10, 3)], charged=True, A=0) + unit("B1", "blue", [(11.26, 3)], A=0)
         + unit("R2", "red", [(10, 9)], A=0) + unit("B2", "blue", [(11.26, 9)], A=0))


def _entry(player: str, choice: str, value: str) -> str:
    return f'\n[[decisions]]\nplayer = "{player}"\nchoice = "{choice}"\nvalue = {value}\n'


def _write(tmp_path, *entries: str, rules: str = "") -> str:
    p = tmp_path / "map.toml"
    p.write_text(HEADER.format(rules=rules) + UNITS + "".join(entries), encoding="utf-8")
    return str(p)


# a gambit-challenge choice is asked only on a map with gambit challenges (else that alone is
# the map's error: test_decision_names)
GAMBIT_RULES = '[rules]\nchallenges = "gambit"\n'
GAMBIT_CHOICES = ("issue_challenge", "accept_challenge", "disgrace", "gambit", "feint", "weapon",
                  "prolong", "withdraw")


def _one_line(capsys, *argv) -> str:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    lines = err.splitlines()
    assert rc == 2 and len(lines) == 1, (rc, lines)
    return lines[0]


@pytest.mark.parametrize("entry, why", [
    # an id on no unit of the map (the old run said "has no models left on the table")
    (("red", "fight", '"nosuchunit"'), "no unit 'nosuchunit' on the map (fight takes a unit id)"),
    # a number where an id belongs
    (("red", "fight", "42"), "fight takes a unit id, not 42"),
    # a fight type that is neither 12.05 normal nor 12.06 overrun
    (("red", "fight_type", '"sideways"'),
     "'sideways' is not a fight type (fight_type is one of normal, overrun: "
     "fight-phase.txt 12.05, 12.06)"),
    # the enemy's unit: B1 is blue's (the old run said "not engaged", which was false)
    (("red", "fight", '"B1"'), "'B1' is blue's, not red's (fight names the player's own unit)"),
    # red attacks blue's units, never its own
    (("red", "attack_target", '"R2"'),
     "'R2' is red's own unit (attack_target names an enemy unit)"),
    # a pile-in target list with an id on nothing
    (("red", "pile_in_targets", '["B1", "zz"]'),
     "no unit 'zz' on the map (pile_in_targets takes a unit id)"),
    (("blue", "prolong", '"yes"'), "prolong takes true or false, not 'yes'"),
])
@pytest.mark.parametrize("command", [("fight", "--seed", "5"), ("fight", "--odds"), ("check",)])
def test_a_decision_that_can_never_answer_is_one_located_line_exit_2(tmp_path, capsys, entry,
                                                                     why, command):
    # entry 0 is a good one, so the bad one is decisions[1]
    path = _write(tmp_path, _entry("red", "fight", '"R1"'), _entry(*entry),
                  rules=GAMBIT_RULES if entry[1] in GAMBIT_CHOICES else "")
    line = _one_line(capsys, command[0], path, *command[1:])
    assert line == f"{path}: decisions[1].value: {why}"


def test_good_decisions_still_load_case_blind_and_with_the_allowed_words(tmp_path):
    path = _write(tmp_path, _entry("red", "fight", '" r1 "'), _entry("red", "pile_in", '"none"'),
                  _entry("blue", "attack_target", '"R2"'), _entry("red", "fight_type", '"Overrun"'),
                  _entry("red", "pile_in_targets", '["b1", "B2"]'))
    assert len(mapfile.load(path).decisions) == 5


def test_the_fight_types_a_map_may_name_are_the_rules_own():
    assert FIGHT_TYPE_VALUES == (NORMAL, OVERRUN)


def test_an_eligible_unit_without_fights_first_is_refused_for_that_reason(tmp_path):
    # red scripts fight = R2 first.  R2 is engaged with B2 but did not charge, so in the Fights
    # First combats (12.04 (1)) only R1 (charged) may be selected: R2 is refused, and the true
    # reason is that it has no Fights First - not "not engaged" (it is, and it fights next).
    # The default R1 answers; then Remaining Combats: blue (the other player) first, B1 then B2
    # alternating with red's R2.
    state = mapfile.load(_write(tmp_path, _entry("red", "fight", '"R2"')))
    res = fight(state, FixedDice([]))
    (over,) = res.log.of_type("decision_overridden")
    assert over["value"] == "R2"
    assert over["reason"] == ("R2 is eligible but has no Fights First: it fights in the "
                              "Remaining Combats (fight-phase.txt 12.04 (1))")
    order = [(e["player"], e["unit"]) for e in res.log.of_type("selected_to_fight")]
    assert order[0] == ("red", "R1") and ("red", "R2") in order
