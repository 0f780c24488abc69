"""One readable line (or a few) per event, for the text output of ``fight`` and the moves.

Generic over rulesets: event types it does not know print as
``type: key value, ...`` with their rule clause.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletop.geometry.solver import MIN_GAIN
from tabletop.rules.events import Event


def _rule(ev: Event) -> str:
    return f"  ({ev.rule})" if ev.rule else ""


def _num(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.2f}".rstrip("0").rstrip(".")
    return str(v)


def _roll(ev: Event) -> str:
    d = ev.data
    dice = d.get("dice") or []
    shown = " ".join(str(x) for x in dice) if len(dice) <= 30 else f"{len(dice)} dice"
    target = d.get("target")
    need = f" needing {target}+" if isinstance(target, int) else (f" against {target}" if target else "")
    mods = d.get("modifiers") or {}
    mod = (" (" + ", ".join(f"{k} {v:+d}" if isinstance(v, int) else f"{k} {v}"
                            for k, v in mods.items()) + ")") if mods else ""
    who = f"{d['player']}: " if d.get("player") else ""
    return f"    roll  {who}{d.get('purpose', 'roll')}{mod}: [{shown}]{need} -> {d.get('result')}"


def _move(ev: Event) -> str:
    d = ev.data
    verb = "piles in" if ev.type == "pile_in" else f"consolidates ({d.get('mode')})"
    targets = ", ".join(d.get("targets") or []) or "-"
    lines = [f"{d.get('player')}: {d.get('unit')} {verb} toward {targets}{_rule(ev)}"]
    dist = d.get("distances") or {}
    for m, path in (d.get("moves") or {}).items():
        a, b = path[0], path[-1]
        lines.append(f"    {m}: ({_num(a[0])}, {_num(a[1])}) -> ({_num(b[0])}, {_num(b[1])}), "
                     f"{dist.get(m, 0.0):.2f}\"")
    if not d.get("moves"):
        lines.append("    no model moves (each is in base contact with an enemy model, or no "
                     f"move gets it engaged or {MIN_GAIN:g}\" closer: solver MIN_GAIN)")
    return "\n".join(lines)


def _no_move(ev: Event) -> str:
    d = ev.data
    what = "pile-in" if d.get("mode") == "pile_in" else "consolidation"
    head = f"{d.get('player')}: {d.get('unit')} makes no {what} move: {d.get('reason')}"
    lines = [head + _rule(ev)]
    lines += [f"    {v['message']}" for v in d.get("violations") or []]
    return "\n".join(lines)


def _attacks(ev: Event) -> str:
    d = ev.data
    text = (f"  {d['unit']} -> {d['target']} with {d['weapon']}: {d['attacks']} attacks, "
            f"{d['hits']} hits, {d['wounds']} wounds, {d['unsaved']} unsaved")
    if d.get("removed"):
        text += f"; removed {', '.join(d['removed'])}"
    if d.get("note"):
        text += f" ({d['note']})"
    return text


_FORMATS: dict[str, Callable[[Event], str]] = {
    "roll": _roll,
    "pile_in": _move,
    "consolidate": _move,
    "no_move": _no_move,
    "attacks_resolved": _attacks,
    "phase_step": lambda ev: f"== {ev.get('title') or ev['step']}{_rule(ev)}",
    "combat_step": lambda ev: f"-- {ev.get('title')}: {ev.get('player')} ({ev.get('reason')})"
                              f"{_rule(ev)}",
    "pass": lambda ev: f"   {ev['player']} has no eligible unit: the other player selects",
    "selected_to_fight": lambda ev: (
        f"{ev['player']} selects {ev['unit']} to fight: {ev['fight']} fight"
        f"{' [Fights First]' if ev.get('fights_first') else ''}{_rule(ev)}"),
    "wounded": lambda ev: (f"    {ev['model']} takes {ev['damage']} damage "
                           f"({ev['wounds_lost']} wounds lost, {ev['wounds_left']} left)"),
    "removed": lambda ev: f"    {ev['model']} is removed as a casualty",
    "destroyed": lambda ev: f"  {ev['unit']} is destroyed: {ev.get('reason')}{_rule(ev)}",
    "no_save": lambda ev: f"    {ev['model']}: no save ({ev.get('reason')})",
    "no_attacks": lambda ev: f"  {ev.get('model') or ev['unit']} makes no attacks: {ev.get('reason')}",
    "eligible_to_fight": lambda ev: f"{ev['unit']} becomes eligible to fight: {ev.get('reason')}"
                                    f"{_rule(ev)}",
    "decision": lambda ev: "",
    "decision_overridden": lambda ev: (f"! {ev['player']}'s decision {ev['choice']} = {ev['value']!r} "
                                       f"overridden: {ev.get('reason')}{_rule(ev)}"),
}


def _merge_ruleset_formats() -> None:
    """Rulesets' own event lines (additive; one module per ruleset)."""
    from tabletop.cli.challenge_text import FORMATS as CHALLENGES
    from tabletop.cli.rnf_event_text import FORMATS as RNF
    for key, fn in [*RNF.items(), *CHALLENGES.items()]:
        _FORMATS.setdefault(key, fn)


_merge_ruleset_formats()


def describe(ev: Event) -> str:
    """The text for one event ('' for events not worth a line)."""
    fmt = _FORMATS.get(ev.type)
    if fmt is not None:
        return fmt(ev)
    fields = ", ".join(f"{k} {_num(v) if not isinstance(v, (dict, list)) else v}"
                       for k, v in ev.data.items())
    return f"{ev.type}: {fields}{_rule(ev)}"


def printer(stream) -> Callable[[Event], None]:
    """An ``EventLog`` listener printing each event as it happens."""
    def listen(ev: Event) -> None:
        text = describe(ev)
        if text:
            print(text, file=stream, flush=True)
    return listen
