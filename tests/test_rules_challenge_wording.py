"""Challenge events in words (rules/challenges/wording.py): the captions' sentences come from the
rules layer, the terminal lines keep their indent and clause (cli/challenge_text.py)."""

from __future__ import annotations

import subprocess
import sys

from loose_events import any_event as make_event

from tabletop.cli.event_text import lines
from tabletop.rules.challenges.wording import SENTENCES
from tabletop.rules.describe import describe, describer_types

D = "gambit-challenge.txt Step 1 (Declare)"


def test_every_challenge_event_type_has_its_sentence():
    assert set(SENTENCES) <= set(describer_types())


def test_sentences_and_terminal_lines():
    ev = make_event("challenge_accepted", D, {"player": "blue", "challenged": "breachers/4", "forced": False})
    assert describe(ev) == "blue accepts with breachers/4"
    assert describe(ev, with_rule=True) == f"blue accepts with breachers/4  ({D})"
    assert lines(ev) == [f"  blue accepts with breachers/4  ({D})"]
    ev = make_event("wounds", "gambit-challenge.txt Step 4 (Strike)",
               {"by": "tac/4", "model": "breachers/4", "hits": 2, "wounds": 2, "unsaved": 1, "lost": 1,
                "wounds_left": 1})
    assert lines(ev) == ["    tac/4 -> breachers/4: 2 hits, 2 wounds, 1 unsaved, 1 Wounds lost (1 left)"]
    ev = make_event("status_removed", "gambit-challenge.txt Disgraced (removed in the End Phase)",
               {"model": "b/1", "status": "disgraced", "reason": "removed in the End Phase"})
    assert describe(ev) == "b/1 is no longer disgraced: removed in the End Phase"
    ev = make_event("returned", "r", {"model": "a/1", "at": [10.0, 11.2649], "engaged": True, "unit_left": True})
    assert describe(ev) == "a/1 returns at (10.00, 11.26), engaged"


def test_captions_read_the_sentences_without_the_cli():
    # the rules layer alone (as the renderer imports it) knows the challenge wording
    code = ("from tabletop.rules.events import make_event\n"
            "import tabletop.rules.challenges\n"
            "from tabletop.rules.describe import describe\n"
            "import sys\n"
            "assert 'tabletop.cli' not in sys.modules\n"
            "print(describe(make_event('challenge_issued', '', {'player': 'red', 'challenger': 'tac/4',"
            " 'combat': ['tac', 'boyz']})))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "red issues a challenge with tac/4"
