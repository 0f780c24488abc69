"""Wording from the issue 9 audit (finding 7): "an overrun", no "no more" for the one challenge,
and the odds table saying challenge deaths are in no unit's "models removed"."""

from __future__ import annotations

from fightkit import state_from, unit

from tabletop.app.question_text import option_label
from tabletop.rules.dice import FixedDice
from tabletop.rules.fight_phase import fight
from tabletop.rules.fight_phase.odds import format_odds


def test_issue_challenge_none_is_no_challenge_and_pile_in_none_is_no_more():
    assert option_label("none", None, "issue_challenge") == "none (no challenge)"
    assert option_label("none", None, "pile_in") == "none (no more)"


def test_an_overrun_refused_reads_an_overrun():
    # R1 (charged) is engaged with B1 (bases 1.26" apart: in contact), so 12.06's overrun (for
    # unengaged units only) is refused; the default normal fight answers
    text = unit("R1", "red", [(10, 3)], charged=True, A=0) + unit("B1", "blue", [(11.26, 3)], A=0)
    s = state_from(text, extra='\n[[decisions]]\nplayer = "red"\nchoice = "fight_type"\n'
                               'value = "overrun"\n')
    (over,) = fight(s, FixedDice([])).log.of_type("decision_overridden")
    assert over["reason"] == ("R1 is not eligible to make an overrun fight "
                              "(12.05 needs engaged; 12.06 needs unengaged)")


def test_the_odds_table_says_challenge_deaths_are_in_no_units_models_removed():
    base = {"method": "exact", "runs": None, "seed": 1, "units": [], "engagements": []}
    said = "models lost include characters slain in a challenge"
    assert said in format_odds({**base, "steps": ["challenge", "fight", "resolution"]})
    assert said not in format_odds({**base, "steps": ["fight"]})
