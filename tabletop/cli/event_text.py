"""The text output of ``fight`` and the moves: one event per line, in the rules' own words.

The wording is ``tabletop.rules.describe.describe`` (shared with the teaching
frames); this module only lays it out for a terminal: an indent that shows
where an event sits in the phase (steps flush left, rolls and wounds
indented under the fight they belong to), the clause in brackets, and the
per-model lines of a move.  Event types no wording knows print in the
generic form ``Combat score: unit a, score 3.``.

The rank-and-flank and challenge rulesets wrote their terminal lines here in
the CLI (``rnf_event_text.FORMATS``, ``challenge_text.FORMATS``); those lines
print as they always did (``RULESET_LINES``, built once below).  Their
captions' sentences are the rules' own wordings (``describe.describers``),
which cover every one of those types; the CLI teaches ``describe`` nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from tabletop.cli.challenge_text import FORMATS as _CHALLENGE_LINES
from tabletop.cli.rnf_event_text import FORMATS as _RNF_LINES
from tabletop.rules.describe import FIGHT_PHASE_TYPES, describe, num
from tabletop.rules.events import Event

INDENT = {"phase_step": "== ", "combat_step": "-- ", "roll": "    ", "wounded": "    ",
          "removed": "    ", "no_save": "    ", "mortal_wounds": "    ", "no_attacks": "  ", "attacks_resolved": "  ",
          "destroyed": "  ", "pass": "   ", "decision_overridden": "! "}
"""Named default: the prefix of each event type's line (others start flush left)."""


def _move_lines(ev: Event) -> list[str]:
    dist = ev.get("distances") or {}
    out = []
    for m, path in (ev.get("moves") or {}).items():
        a, b = path[0], path[-1]
        out.append(f"    {m}: ({num(float(a[0]))}, {num(float(a[1]))}) -> "
                   f"({num(float(b[0]))}, {num(float(b[1]))}), {float(dist.get(m, 0.0)):.2f}\"")
    return out


def lines(ev: Event) -> list[str]:
    """The terminal lines for one event ([] for events not worth a line)."""
    own = RULESET_LINES.get(ev.type)
    if own is not None:
        return [line for line in own(ev).split("\n") if line.strip()]
    text = describe(ev, with_rule=ev.type not in ("roll", "wounded", "removed", "no_save"))
    if not text:
        return []
    out = [INDENT.get(ev.type, "") + text]
    if ev.type in ("pile_in", "consolidate"):
        out += _move_lines(ev)
    elif ev.type == "no_move":
        out += [f"    {v.get('message', v)}" for v in (ev.get("violations") or [])[1:]]
    return out


def printer(stream) -> Callable[[Event], None]:
    """An ``EventLog`` listener printing each event as it happens."""
    def listen(ev: Event) -> None:
        for line in lines(ev):
            print(line, file=stream, flush=True)
    return listen


def _ruleset_lines() -> dict[str, Callable[[Event], str]]:
    """The rulesets' own terminal lines (one module per ruleset), in one table: the first
    module's line of a type is kept, and the Fight phase's wording wins where a type is in
    both."""
    out: dict[str, Callable[[Event], str]] = {}
    for key, fn in [*_RNF_LINES.items(), *_CHALLENGE_LINES.items()]:
        if key not in FIGHT_PHASE_TYPES and key not in out:
            out[key] = fn
    return out


RULESET_LINES = _ruleset_lines()
"""Event type -> the ruleset's terminal line(s) for it (``lines`` prints these as they are)."""
