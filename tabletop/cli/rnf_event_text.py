"""Terminal lines for the rank-and-flank combat events (merged into ``event_text``).

The words are the ruleset's (``tabletop.rules.rank_and_flank.wording``, the
same sentences the frames' captions read); this module only lays them out:
an indent showing where the event sits in an engagement, the clause in
brackets, and the combat score's breakdown one item a line.
"""

from __future__ import annotations

from collections.abc import Callable

from tabletop.rules.events import Event
from tabletop.rules.rank_and_flank.wording import SENTENCES, score_items

INDENTS = {"engagement": "== ", "carried_over": "    ", "stepped_up": "    ",
           "closed_up": "    ", "close_up_blocked": "    ",
           "engagements": "", "combat_score": "", "no_engagements": ""}
"""Named default: each type's line prefix (others: two spaces)."""

NO_CLAUSE = frozenset({"blows", "note", "stepped_up", "unit_geometry", "engagement", "charge_over"})
"""Named default: types printed without their clause (it is on the lines around them)."""


def _line(type_: str, sentence: Callable[[Event], str]) -> Callable[[Event], str]:
    def line(ev: Event) -> str:
        words = sentence(ev)
        if not words:                   # a fact the lines around it already tell
            return ""
        text = INDENTS.get(type_, "  ") + words
        if ev.rule and type_ not in NO_CLAUSE:
            text += f"  ({ev.rule})"
        if type_ == "combat_score":
            text = "\n".join([text] + [f"    {item}" for item in score_items(ev)])
        return text
    return line


FORMATS: dict[str, Callable[[Event], str]] = {t: _line(t, fn) for t, fn in SENTENCES.items()}
