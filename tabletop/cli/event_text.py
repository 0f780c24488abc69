"""The text output of ``fight`` and the moves: one event per line, in the rules' own words.

The wording is ``tabletop.rules.describe.describe`` (shared with the teaching
frames); this module only lays it out for a terminal: an indent that shows
where an event sits in the phase (steps flush left, rolls and wounds
indented under the fight they belong to), the clause in brackets, and the
per-model lines of a move.  Event types no wording knows print in the
generic form ``Combat score: unit a, score 3.``.
"""

from __future__ import annotations

from collections.abc import Callable

from tabletop.rules.describe import describe, num, register_describer  # noqa: F401  (re-exported)
from tabletop.rules.events import Event

INDENT = {"phase_step": "== ", "combat_step": "-- ", "roll": "    ", "wounded": "    ",
          "removed": "    ", "no_save": "    ", "no_attacks": "  ", "attacks_resolved": "  ",
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
