"""Events in words: one human sentence per event, shared by the CLI and the teaching frames.

``describe(event)`` returns a sentence a rules teacher could read aloud
("marines piles in with assault toward boyz: 7 models move, the longest
3.00\"."); ``describe(event, with_rule=True)`` adds the clause the event
applies.  Every event type the Fight phase emits has its own wording
(``fight-phase.txt 12.01-12.09``, ``FIGHT_PHASE_SENTENCES`` here); the
rank-and-flank ruleset's and the challenges' wordings are their own tables
(``rank_and_flank.wording.SENTENCES``: ``combat_score``, ``break_test``,
``fled`` ...; ``challenges.wording.SENTENCES``: ``challenge_issued`` ...).
``describers()`` is the one table of every wording, built in this module
from those three (nothing registers itself at import, so the wording of an
event never depends on which modules were imported first).  A type without
a wording reads as ``Combat score: unit a, score 3.`` - its name in words,
then its fields.

Distances are inches, printed to 0.01".  Player and unit names are the ids
the events carry.  The empty string means "not worth a line".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from types import MappingProxyType
from typing import Any

from tabletop.geometry.solver import MIN_GAIN
from tabletop.rules.events import Event

Describer = Callable[[Event], str]

DICE_LISTED = 20
"""Named default: a roll of more dice than this is given as a count ("40 dice"), not each face."""

IDS_LISTED = 6
"""Named default: how many ids a sentence lists before "and N more"."""

@cache
def describers() -> Mapping[str, Describer]:
    """Every event type's wording: ``{type: fn(event) -> str}``, read-only.

    Built once, in this one place, from ``FIGHT_PHASE_SENTENCES``, the rank-and-flank
    ruleset's ``wording.SENTENCES`` and the challenges' ``wording.SENTENCES`` (their type
    names are distinct; a later table would win a clash).  The wording modules use the
    helpers below, so they are read here when the table is first asked for.
    """
    from tabletop.rules.challenges.wording import SENTENCES as CHALLENGES
    from tabletop.rules.rank_and_flank.wording import SENTENCES as RANK_AND_FLANK
    return MappingProxyType({**FIGHT_PHASE_SENTENCES, **RANK_AND_FLANK, **CHALLENGES})


def describer_types() -> list[str]:
    """The event types with a wording of their own."""
    return sorted(describers())


def describe(event: Event, *, with_rule: bool = False) -> str:
    """One sentence for ``event`` ('' for events not worth a line).

    Parameters
    ----------
    event : Event
        Any event; fields a wording expects but the event lacks read as "?".
    with_rule : bool
        Append the clause (``"  (fight-phase.txt 12.03)"``) when the event names one.
    """
    fn = describers().get(event.type)
    try:
        text = fn(event) if fn is not None else generic(event)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        text = generic(event)   # a ruleset's event missing a field still reads
    if text and with_rule and event.rule:
        text += f"  ({event.rule})"
    return text


# ---------------------------------------------------------------- helpers for wordings
def num(v: Any) -> str:
    """``3.0`` -> ``3``, ``2.345`` -> ``2.35``; other values as ``str``."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return f"{v:.2f}".rstrip("0").rstrip(".")
    return str(v)


def inches(d: float) -> str:
    """``2.6`` -> ``2.60"``."""
    return f'{float(d):.2f}"'


def plural(n: int, word: str, many: str | None = None) -> str:
    """``plural(1, "model")`` -> ``1 model``; ``plural(3, "model")`` -> ``3 models``."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def possessive(name: Any) -> str:
    """``marines`` -> ``marines'``; ``red`` -> ``red's``."""
    s = str(name)
    return s + ("'" if s.endswith("s") else "'s")


def id_list(ids: Sequence[Any], limit: int = IDS_LISTED, conj: str = "and") -> str:
    """``[a, b, c]`` -> ``a, b and c``; past ``limit`` ids: ``a, b, ... and 5 more``."""
    items = [str(i) for i in ids]
    if not items:
        return "none"
    if len(items) > limit:
        return ", ".join(items[:limit]) + f" {conj} {len(items) - limit} more"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {conj} {items[-1]}"


def words(name: str) -> str:
    """``combat_score`` -> ``Combat score``."""
    s = str(name).replace("_", " ").replace("-", " ").strip()
    return s[:1].upper() + s[1:]


def _value(v: Any) -> str:
    if isinstance(v, Mapping):
        if len(v) > IDS_LISTED:
            return plural(len(v), "entry", "entries")
        return "{" + ", ".join(f"{k}: {_value(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        if not v:
            return "none"
        if all(not isinstance(x, (list, tuple, Mapping)) for x in v):
            return id_list([num(x) for x in v])
        return plural(len(v), "item")
    return num(v)


def generic(event: Event) -> str:
    """The wording of a type nobody registered: ``Combat score: unit a, score 3.``"""
    fields = ", ".join(f"{words(k).lower()} {_value(v)}" for k, v in event.data.items())
    return f"{words(event.type)}" + (f": {fields}." if fields else ".")


def _g(ev: Event, key: str) -> Any:
    v = ev.get(key)
    return "?" if v is None else v


# ---------------------------------------------------------------- the Fight phase's events
_STEP_START = {
    "start": "Start of the Fight phase",
    "pile_in": "Pile-in step",
    "fight": "Fight step",
    "consolidate": "Consolidation step",
    "end": "End of the Fight phase",
}


def _phase_step(ev: Event) -> str:
    step = ev.get("step")
    head = _STEP_START.get(step) or ev.get("title") or words(step or "step")
    player = ev.get("player")
    if step == "start":
        pairs = ev.get("engaged") or []
        units = sorted({u for p in pairs for u in p})
        verb = "is" if len(pairs) == 1 else "are"
        tail = (f"{plural(len(pairs), 'pair')} of units {verb} engaged ({id_list(units)})" if pairs
                else "no units are engaged")
        return f"{head}, {possessive(player)} turn: {tail}." if player else f"{head}: {tail}."
    if step == "pile_in":
        return f"{head}: {player} (whose turn it is) piles in first, then the opponent."
    if step == "consolidate":
        return f"{head}: {player} (whose turn it is) consolidates first, then the opponent."
    if step == "fight":
        eligible = ev.get("eligible")
        if eligible is None:
            return f"{head}: players alternate selecting units to fight, {player} first."
        if not eligible:
            return f"{head}: no unit is eligible to fight."
        return (f"{head}: {plural(len(eligible), 'unit is', 'units are')} eligible to fight "
                f"({id_list(eligible)}).")
    if step == "end":
        sel = ev.get("selected")
        if sel is None:
            return f"{head}."
        return f"{head}: {plural(len(sel), 'unit')} fought ({id_list(sel)})." if sel else \
            f"{head}: no unit fought."
    return f"{head}."


def _combat_step(ev: Event) -> str:
    title, player, reason = _g(ev, "title"), _g(ev, "player"), ev.get("reason")
    if ev.get("step") == "end":
        return f"{title}: {reason}." if reason else f"{title}."
    why = f" ({reason})" if reason else ""
    return f"{title}: {player} selects next{why}."


def _selected(ev: Event) -> str:
    kind = str(_g(ev, "fight"))
    article = "an" if kind[:1].lower() in "aeiou" else "a"
    ff = " It is a Fights First unit." if ev.get("fights_first") else ""
    return f"{_g(ev, 'player')} selects {_g(ev, 'unit')} to fight: {article} {kind} fight.{ff}"


_MODES = {
    "ongoing": "ongoing consolidation",
    "engaging": "engaging consolidation, into new enemies",
    "objective": "objective consolidation",
}


def _move(ev: Event) -> str:
    moves = ev.get("moves") or {}
    dist = ev.get("distances") or {}
    targets = ev.get("targets") or []
    unit, player = _g(ev, "unit"), _g(ev, "player")
    toward = f" toward {id_list(targets)}" if targets else ""
    if ev.type == "pile_in":
        verb = f"{player} piles in with {unit}"
    else:
        mode = ev.get("mode")
        verb = f"{player} consolidates {unit}"
        toward += f" ({_MODES.get(mode, f'{mode} consolidation')})" if mode else ""
    if not moves:
        return (f"{verb}{toward}: no model moves (each is in base contact with an enemy model, "
                f"or no move gets it engaged or {MIN_GAIN:g}\" closer).")
    longest = max((float(v) for v in dist.values()), default=0.0)
    far = f", the longest {inches(longest)}" if dist else ""
    return f"{verb}{toward}: {plural(len(moves), 'model moves', 'models move')}{far}."


def _no_move(ev: Event) -> str:
    what = "pile-in" if ev.get("mode") == "pile_in" else "consolidation"
    reason = str(ev.get("reason") or "no legal move").rstrip(".")
    viol = ev.get("violations") or []
    more = (f" (the solver's move breaks {plural(len(viol), 'rule')}: "
            f"{viol[0].get('message', '')})") if viol else ""
    return f"{_g(ev, 'unit')} makes no {what} move: {reason}{more}."


def roller(kind: str, player: Any) -> str:
    """``Hit roll (red)``; ``Attack roll vs x (y), red`` when the kind ends in brackets."""
    head = words(kind)
    if not player:
        return head
    return f"{head}, {player}" if head.endswith(")") else f"{head} ({player})"


def _modifier(key: str, value: Any) -> str:
    """``AP -1``, ``Lance +1``; a key that already says its value (``+7 to hit``) alone."""
    if not isinstance(value, int):
        return f"{key} {value}"
    return key if key.startswith(f"{value:+d} ") else f"{key} {value:+d}"


def _modifiers(mods: Mapping[str, Any]) -> str:
    """The modifiers of a roll in words, '' for none.

    Uncapped, each as logged (``, AP -1``).  When the cap bites (a ``cap`` entry,
    ``abilities.capped``), what was capped and to what: ``, modifiers +7 to hit,
    capped to +1``; ``, modifiers Lance +1, +1 to wound (+2 in all), capped to +1``.
    """
    if not mods:
        return ""
    if "cap" not in mods or not all(isinstance(v, int) for v in mods.values()):
        return ", " + ", ".join(f"{k} {v:+d}" if isinstance(v, int) else f"{k} {v}"
                                for k, v in mods.items())
    own = {k: v for k, v in mods.items() if k != "cap"}
    raw = sum(own.values())
    total = raw + mods["cap"]
    listed = ", ".join(_modifier(k, v) for k, v in own.items())
    in_all = f" ({raw:+d} in all)" if len(own) > 1 else ""
    return f", modifiers {listed}{in_all}, capped to {total:+d}"


def _roll(ev: Event) -> str:
    purpose = str(ev.get("purpose") or "roll")
    kind, _, detail = purpose.partition(": ")
    dice = ev.get("dice") or []
    if len(dice) > DICE_LISTED:
        shown = f"{len(dice)} dice"
    elif len(dice) == 1:
        shown = f"rolled {dice[0]}"
    else:
        shown = "rolled " + " ".join(str(x) for x in dice) if dice else "no dice"
    target = ev.get("target")
    need = f" needing {target}+" if isinstance(target, int) else (f" against {target}" if target else "")
    mod = _modifiers(ev.get("modifiers") or {})
    detail = f" - {detail}" if detail else ""
    result = ev.get("result")
    res = f" -> {num(result)}" if result is not None else ""
    return f"{roller(kind, ev.get('player'))}{detail}{mod}: {shown}{need}{res}."


def _attacks(ev: Event) -> str:
    text = (f"{_g(ev, 'unit')} attacks {_g(ev, 'target')} with {_g(ev, 'weapon')}: "
            f"{plural(int(ev.get('attacks') or 0), 'attack')}, {plural(int(ev.get('hits') or 0), 'hit')}, "
            f"{plural(int(ev.get('wounds') or 0), 'wound')}, {ev.get('unsaved') or 0} unsaved")
    extras = [f"{plural(int(ev[k]), word)}{tail}" for k, word, tail in (
        ("critical_hits", "critical hit", ""), ("extra_hits", "extra hit", " (Sustained Hits)"),
        ("auto_wounds", "automatic wound", " (Lethal Hits)"),
        ("critical_wounds", "critical wound", ""), ("mortal_wounds", "mortal wound", ""),
        ("fnp_ignored", "wound", " ignored (Feel No Pain)")) if ev.get(k)]
    if extras:
        text += " (" + ", ".join(extras) + ")"
    removed = ev.get("removed") or []
    if removed:
        text += f"; {plural(len(removed), 'model')} removed ({id_list(removed)})"
    if ev.get("note"):
        text += f" - {str(ev['note']).rstrip('.')}"
    return text + "."


def _wounded(ev: Event) -> str:
    left = ev.get("wounds_left")
    dmg = int(ev.get("damage") or 0)
    lost = ev.get("wounds_lost")
    tail = "" if left is None else (f" ({plural(int(lost), 'wound')} lost, {int(left)} left)"
                                    if lost is not None else f" ({int(left)} left)")
    return f"{_g(ev, 'model')} takes {dmg} damage{tail}."


def _removed(ev: Event) -> str:
    by = f" (attacked by {ev['by']})" if ev.get("by") else ""
    return f"{_g(ev, 'model')} is removed as a casualty{by}."


def _destroyed(ev: Event) -> str:
    reason = ev.get("reason")
    return f"{_g(ev, 'unit')} is destroyed" + (f": {str(reason).rstrip('.')}." if reason else ".")


def _no_save(ev: Event) -> str:
    reason = ev.get("reason")
    return f"{_g(ev, 'model')} gets no save" + (f": {str(reason).rstrip('.')}." if reason else ".")


def _mortal_wounds(ev: Event) -> str:
    reason = ev.get("reason")
    return (f"{_g(ev, 'target')} suffers {plural(int(ev.get('amount') or 0), 'mortal wound')}"
            + (f": {str(reason).rstrip('.')}." if reason else "."))


def _no_attacks(ev: Event) -> str:
    who = ev.get("model") or _g(ev, "unit")
    reason = ev.get("reason")
    return f"{who} makes no attacks" + (f": {str(reason).rstrip('.')}." if reason else ".")


def _pass(ev: Event) -> str:
    return f"{_g(ev, 'player')} has no eligible unit to select, so the other player selects."


def _eligible(ev: Event) -> str:
    reason = ev.get("reason")
    return (f"{possessive(_g(ev, 'player'))} {_g(ev, 'unit')} becomes eligible to fight"
            + (f": {str(reason).rstrip('.')}." if reason else "."))


def _no_longer_eligible(ev: Event) -> str:
    reason = ev.get("reason")
    return (f"{possessive(_g(ev, 'player'))} {_g(ev, 'unit')} is no longer eligible to fight"
            + (f": {str(reason).rstrip('.')}." if reason else "."))


def _overridden(ev: Event) -> str:
    reason = ev.get("reason")
    return (f"{possessive(_g(ev, 'player'))} scripted {_g(ev, 'choice')} = {ev.get('value')!r} is overridden"
            + (f": {str(reason).rstrip('.')}." if reason else "."))


FIGHT_PHASE_TYPES = ("phase_step", "combat_step", "pass", "selected_to_fight", "pile_in", "consolidate",
                     "no_move", "roll", "attacks_resolved", "wounded", "removed", "destroyed", "no_save",
                     "mortal_wounds", "no_attacks", "eligible_to_fight", "no_longer_eligible", "decision",
                     "decision_overridden")
"""The event types the Fight phase (and its dice and decisions) emit."""

FIGHT_PHASE_SENTENCES: Mapping[str, Describer] = MappingProxyType({
    "phase_step": _phase_step, "combat_step": _combat_step, "pass": _pass,
    "selected_to_fight": _selected, "pile_in": _move, "consolidate": _move,
    "no_move": _no_move, "roll": _roll, "attacks_resolved": _attacks,
    "wounded": _wounded, "removed": _removed, "destroyed": _destroyed,
    "no_save": _no_save, "mortal_wounds": _mortal_wounds, "no_attacks": _no_attacks,
    "eligible_to_fight": _eligible, "no_longer_eligible": _no_longer_eligible,
    "decision": lambda ev: "", "decision_overridden": _overridden,
})
"""The Fight phase's wordings (its dice and decisions too): one per ``FIGHT_PHASE_TYPES``."""
