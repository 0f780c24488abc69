"""The text output of ``fight`` and the moves: one event per line, in the rules' own words.

The wording is ``tabletop.rules.describe.describe`` (shared with the teaching
frames); this module only lays it out for a terminal: an indent that shows
where an event sits in the phase (steps flush left, rolls and wounds
indented under the fight they belong to), the clause in brackets, and the
per-model lines of a move.  Event types no wording knows print in the
generic form ``Combat score: unit a, score 3.``.

The rank-and-flank and challenge rulesets wrote their terminal lines here in
the CLI (``rnf_event_text.FORMATS``, ``challenge_text.FORMATS``); those lines
print as they always did, and are registered with ``register_describer`` (less
their indent and clause) so the frames' captions read them too.
"""

from __future__ import annotations

from collections.abc import Callable

from tabletop.rules.describe import describe, describer_types, num, register_describer  # noqa: F401
from tabletop.rules.events import Event

_RULESET_LINES: dict[str, Callable[[Event], str]] = {}

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
    own = _RULESET_LINES.get(ev.type)
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


def _sentence(fn: Callable[[Event], str]) -> Callable[[Event], str]:
    """A ruleset's terminal line as a caption sentence: no indent, no trailing clause."""
    def describe_it(ev: Event) -> str:
        text = fn(ev).strip()
        suffix = f"({ev.rule})" if ev.rule else None
        if suffix and text.endswith(suffix):
            text = text[:-len(suffix)].rstrip()
        return text
    return describe_it


def _merge_ruleset_formats() -> None:
    """Rulesets' own event lines (additive; one module per ruleset).  The Fight phase's
    wording wins where a type is in both, as before."""
    from tabletop.cli.challenge_text import FORMATS as CHALLENGES
    from tabletop.cli.rnf_event_text import FORMATS as RNF
    from tabletop.rules.describe import FIGHT_PHASE_TYPES
    known = set(FIGHT_PHASE_TYPES)      # not describer_types(): a ruleset may register its own first
    for key, fn in [*RNF.items(), *CHALLENGES.items()]:
        if key in known or key in _RULESET_LINES:
            continue
        _RULESET_LINES[key] = fn
        if key not in describer_types():     # a ruleset that words its own events keeps them
            register_describer(key, _sentence(fn))


_merge_ruleset_formats()
