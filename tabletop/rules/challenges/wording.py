"""Challenge events in words: one sentence per event type, for the captions and the terminal.

``SENTENCES[type](event) -> str`` is the sentence (no indent, no clause);
``tabletop.rules.describe.describers()`` reads this table, so
``describe(event)`` words every one of them.  ``TERMINAL[type] = (indent, with
clause)`` is how ``tabletop fight`` lays a line out (``cli/challenge_text``):
lines inside a challenge are indented under the challenge, the per-model blow
lines further, and most end with the clause they apply.
"""

from __future__ import annotations

from collections.abc import Callable

from tabletop.rules.describe import plural
from tabletop.rules.events import Event


def _result(ev: Event) -> str:
    d = ev.data
    if d.get("winner") is None:
        why = d.get("reason") or "neither wins"
        return f"challenge: a draw ({why})"
    text = f"challenge won by {d['winner']}"
    if d.get("winner_model"):
        text += f" ({d['winner_model']})"
    if d.get("removed"):
        text += f"; removed {', '.join(d['removed'])}"
    text += f"; {d.get('points')} combat resolution point{'s' if d.get('points') != 1 else ''}"
    if d.get("reason"):
        text += f" ({d['reason']})"
    if d.get("overkill"):
        text += f", overkill +{d['overkill']} counted"
    return text


def _contact(ev: Event) -> str:
    if ev.get("treated_in_contact"):
        how = "treated as in base contact (the table does not allow it)"
    elif ev.get("moved"):
        how = "moved into base contact: " + ", ".join(f"{a} swaps with {b}" for a, b in ev["moved"].items())
    else:
        how = "already in base contact"
    return f"{' and '.join(ev['models'])}: {how}"


def _advantage(ev: Event) -> str:
    totals = ", ".join(f"{p} {t}" for p, t in ev["totals"].items())
    rerolls = f", {ev['rerolls']} tie re-roll(s)" if ev.get("rerolls") else ""
    return f"Challenge Advantage: {ev['player']} ({totals}{rerolls})"


def _returned(ev: Event) -> str:
    return (f"{ev['model']} returns at ({ev['at'][0]:.2f}, {ev['at'][1]:.2f})"
            f"{', engaged' if ev.get('engaged') else ''}{' - ' + ev['note'] if ev.get('note') else ''}")


SENTENCES: dict[str, Callable[[Event], str]] = {
    "challenge_issued": lambda ev: f"{ev['player']} issues a challenge with {ev['challenger']}",
    "challenge_accepted": lambda ev: (f"{ev['player']} accepts with {ev['challenged']}"
                                      f"{' (it cannot refuse)' if ev.get('forced') else ''}"),
    "challenge_refused": lambda ev: (f"{ev['player']} refuses: {ev['disgraced']} is Disgraced"
                                     + (f" (swaps places with {ev['swapped_with']})" if ev.get("swapped_with")
                                        else "")),
    "cannot_refuse": lambda ev: f"{ev['model']} cannot refuse: {ev.get('reason')}",
    "challenge_contact": _contact,
    "set_aside": lambda ev: (f"{' and '.join(ev['models'])} {'is' if len(ev['models']) == 1 else 'are'} "
                             f"set aside, out of play"),
    "outside_support": lambda ev: (f"outside support for {ev['player']}: {plural(len(ev['models']), 'model')} counted "
                                   f"({ev['counted']}) -> +{ev['bonus']}"),
    "gambit_chosen": lambda ev: (f"round {ev.get('round')}: {ev['player']} chooses {ev['gambit']}"
                                 f"{' (first)' if ev.get('first') else ''}"),
    "gambit_banned": lambda ev: f"{ev['player']} names {ev['gambit']}: the opponent cannot choose it",
    "weapon_chosen": lambda ev: f"{ev['player']}: {ev['model']} fights with the {ev['weapon']}",
    "challenge_advantage": _advantage,
    "strike_profile": lambda ev: (f"{ev['model']} strikes with WS {ev['WS']}, A {ev['A']}, S {ev['S']}, "
                                  f"AP {ev['AP']}, D {ev['D']}"
                                  f"{' - ' + '; '.join(ev['notes']) if ev.get('notes') else ''}"),
    "wounds": lambda ev: (f"{ev['by']} -> {ev['model']}: {plural(ev['hits'], 'hit')}, {plural(ev['wounds'], 'wound')}, "
                          f"{ev['unsaved']} unsaved, {ev['lost']} Wounds lost ({ev['wounds_left']} left)"),
    "prolong": lambda ev: f"a draw: {ev['player']} {'prolongs the challenge' if ev['value'] else 'moves to Glory'}",
    "challenge_result": _result,
    "killing_blow": lambda ev: f"{ev['model']}: {ev['count']} Killing Blow(s), {ev['wounds_each']} wounds each",
    "returned": _returned,
    "challenge_points": lambda ev: ("combat resolution from challenges: "
                                    + (", ".join(f"{p} {n}" for p, n in ev["points"].items()) or "none")),
    "challenge_continues": lambda ev: f"the challenge {' v '.join(ev['models'])} goes on",
    "challenge_continues_next_round": lambda ev: f"both survive: {' v '.join(ev['models'])} fight on next round",
    "no_challenge": lambda ev: f"no challenge: {ev.get('reason')}",
    "status_removed": lambda ev: f"{ev['model']} is no longer {ev['status']}: {ev.get('reason')}",
}

_NO_CLAUSE = ("strike_profile", "wounds", "killing_blow", "no_challenge")
TERMINAL: dict[str, tuple[str, bool]] = {
    t: ("" if t == "challenge_issued" else "    " if t in ("wounds", "killing_blow") else "  ",
        t not in _NO_CLAUSE)
    for t in SENTENCES
}
"""Named default: each type's terminal indent and whether its line ends with the clause."""
